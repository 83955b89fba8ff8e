/**
 * Running "Deprecate and point to a replacement" against the portal, without React: for each
 * dependent the caller may update, read its data, swap the references (replace.ts) and write it
 * back with the public Update Item (`text`); a few at a time, with progress, one outcome per item
 * (a failure never stops the others). Then the old item is marked deprecated. The portal records
 * each rewrite in history as reference swaps, which undo reverses.
 */
import { describeError, fetchItemData, setContentStatus, updateItem } from '../../api/index.ts';
import { runBulk } from '../../api/index.ts';
import { replacementSwaps, rewriteReferences, type ReplaceStep, type ReplaceTarget } from './replace.ts';

export interface ReplaceOutcome {
  id: string;
  title: string;
  status: 'updated' | 'skipped' | 'failed';
  detail: string;
}

export interface ReplaceRunResult {
  outcomes: ReplaceOutcome[];
  /** The old item's status change: done, or why not. */
  deprecated: { ok: true } | { ok: false; message: string };
}

/** Dependents' data larger than this is not rewritten in the browser (the portal's own limit on text is lower). */
const MAX_DATA_BYTES = 10 * 1024 * 1024;

async function rewriteOne(step: Extract<ReplaceStep, { action: 'update' }>, swaps: ReturnType<typeof replacementSwaps>): Promise<ReplaceOutcome> {
  const { item } = step.referrer;
  const base = { id: item.id, title: item.title || item.id };
  const { blob } = await fetchItemData(item.id);
  if (blob.size > MAX_DATA_BYTES) return { ...base, status: 'skipped', detail: 'Its data is too large to rewrite here.' };
  let data: unknown;
  try {
    data = JSON.parse(await blob.text());
  } catch {
    return { ...base, status: 'skipped', detail: 'Its data is not JSON, so its references cannot be rewritten.' };
  }
  const { data: next, changed } = rewriteReferences(item.type, data, swaps);
  if (!changed) return { ...base, status: 'skipped', detail: 'It no longer names the old item: nothing to change.' };
  await updateItem(item.owner, item.id, { text: JSON.stringify(next) });
  return { ...base, status: 'updated', detail: `${changed} reference${changed === 1 ? '' : 's'} now point to the replacement.` };
}

export async function runReplacement(
  oldItem: ReplaceTarget,
  replacement: ReplaceTarget,
  steps: readonly ReplaceStep[],
  options: { deprecate: boolean; onProgress?: (done: number, total: number) => void },
): Promise<ReplaceRunResult> {
  const swaps = replacementSwaps(oldItem, replacement);
  const updates = steps.filter((s): s is Extract<ReplaceStep, { action: 'update' }> => s.action === 'update');
  const ran = await runBulk(updates, (s) => rewriteOne(s, swaps), { concurrency: 3, onProgress: options.onProgress });
  const byId = new Map(
    ran.map((o): [string, ReplaceOutcome] => [
      o.item.referrer.item.id,
      o.ok ? o.value : { id: o.item.referrer.item.id, title: o.item.referrer.item.title, status: 'failed', detail: describeError(o.error) },
    ]),
  );
  const outcomes = steps.map((s): ReplaceOutcome =>
    s.action === 'skip'
      ? { id: s.referrer.item.id, title: s.referrer.item.title || s.referrer.item.id, status: 'skipped', detail: s.reason }
      : byId.get(s.referrer.item.id)!,
  );
  let deprecated: ReplaceRunResult['deprecated'] = { ok: true };
  if (options.deprecate) {
    try {
      // The replacement rides along (a local extra: "Deprecated — use …"); a portal without it ignores it.
      await setContentStatus(oldItem.id, 'deprecated', { replacedBy: replacement.id });
    } catch (err) {
      deprecated = { ok: false, message: describeError(err) };
    }
  }
  return { outcomes, deprecated };
}
