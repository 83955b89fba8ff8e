/**
 * Carrying out a copy plan: each item created (or updated) in the target in dependency order, with
 * its data (JSON text with ids rewritten, or its file as is), thumbnail and resources. When a step
 * fails, every item this run created is deleted again (as solution.js rolls a failed deployment
 * back), so nothing is left half-made; items it updated keep the change already made to them.
 */
import { describeError } from '../../api/index.ts';
import { sourceKeyword, type CopyPlan, type PlanStep } from './plan.ts';
import { rewriteData } from './rewrite.ts';
import {
  addItem,
  deleteItem,
  listResources,
  readItemData,
  readResource,
  readThumbnail,
  updateItem,
  writeResource,
  type ItemWrite,
  type PortalConnection,
} from './portal.ts';

export type StepState = 'waiting' | 'running' | 'done' | 'failed' | 'rolledBack';

export interface CopiedItem {
  sourceId: string;
  targetId: string;
  title: string;
  action: 'create' | 'update';
}

export interface CopyResult {
  items: CopiedItem[];
  /** Ids of the items this run created in the target: what undo deletes. */
  created: string[];
}

export class CopyFailed extends Error {
  constructor(
    readonly step: PlanStep,
    readonly cause: unknown,
    /** Created items the rollback could not delete (ids), to name to the user. */
    readonly leftBehind: string[],
  ) {
    super(`Copying "${step.source.title}" failed: ${describeError(cause)}`);
  }
}

export interface ApplyOptions {
  onProgress?: (sourceId: string, state: StepState) => void;
}

const decoder = new TextDecoder();

async function writeOf(step: PlanStep, source: PortalConnection, target: PortalConnection, idMap: Map<string, string>): Promise<ItemWrite> {
  const item = step.source;
  const keyword = sourceKeyword(item.id);
  const kept = (step.existing?.typeKeywords ?? item.typeKeywords).filter((k) => !/^source-/i.test(k));
  const write: ItemWrite = {
    title: item.title,
    type: item.type,
    typeKeywords: [...new Set([...kept, ...item.typeKeywords.filter((k) => !/^source-/i.test(k)), keyword])],
    tags: item.tags,
    snippet: item.snippet ?? undefined,
    description: item.description ?? undefined,
    accessInformation: item.accessInformation ?? undefined,
    licenseInfo: item.licenseInfo ?? undefined,
    url: item.url ?? undefined,
  };
  if (step.dataKind === 'text' || step.dataKind === 'file') {
    const data = await readItemData(source, item.id);
    if (data && step.dataKind === 'text') {
      let text = decoder.decode(data.bytes);
      try {
        text = JSON.stringify(rewriteData(item.type, JSON.parse(text), idMap, source.portalUrl, target.portalUrl));
      } catch {
        /* not JSON: copied as it is */
      }
      write.text = text;
    } else if (data) {
      write.file = { bytes: data.bytes, contentType: data.contentType, filename: item.name || `${item.id}.dat` };
    }
  }
  const thumbnail = await readThumbnail(source, item);
  if (thumbnail) write.thumbnail = thumbnail;
  return write;
}

async function copyResources(
  step: PlanStep,
  source: PortalConnection,
  target: PortalConnection,
  owner: string,
  targetId: string,
  created: boolean,
): Promise<void> {
  const wanted = await listResources(source, step.source.id);
  if (!wanted.length) return;
  const present = created ? new Set<string>() : new Set((await listResources(target, targetId)).map((r) => r.resource));
  for (const r of wanted) {
    const file = await readResource(source, step.source.id, r.resource);
    await writeResource(target, owner, targetId, r.resource, file, present.has(r.resource) ? 'update' : 'add');
  }
}

/** Runs the plan; resolves with what was copied, or rejects with CopyFailed after rolling back. */
export async function applyPlan(plan: CopyPlan, source: PortalConnection, target: PortalConnection, options: ApplyOptions = {}): Promise<CopyResult> {
  const idMap = new Map<string, string>();
  for (const step of plan.steps) if (step.existing) idMap.set(step.source.id.toLowerCase(), step.existing.id);
  const result: CopyResult = { items: [], created: [] };
  for (const step of plan.steps) {
    options.onProgress?.(step.source.id, 'running');
    try {
      const write = await writeOf(step, source, target, idMap);
      let targetId: string;
      let owner: string;
      if (step.existing) {
        targetId = step.existing.id;
        owner = step.existing.owner;
        await updateItem(target, owner, targetId, write);
      } else {
        targetId = await addItem(target, write);
        owner = target.username;
        result.created.push(targetId);
      }
      idMap.set(step.source.id.toLowerCase(), targetId);
      await copyResources(step, source, target, owner, targetId, !step.existing);
      result.items.push({ sourceId: step.source.id, targetId, title: step.source.title, action: step.existing ? 'update' : 'create' });
      options.onProgress?.(step.source.id, 'done');
    } catch (err) {
      options.onProgress?.(step.source.id, 'failed');
      const leftBehind = await undoCopy(result, target);
      for (const item of result.items) if (item.action === 'create') options.onProgress?.(item.sourceId, 'rolledBack');
      throw new CopyFailed(step, err, leftBehind);
    }
  }
  return result;
}

/** Deletes the items a copy created (undo, and the rollback of a failed run); the ids it could not delete. */
export async function undoCopy(result: { created: readonly string[] }, target: PortalConnection): Promise<string[]> {
  const left: string[] = [];
  for (const id of [...result.created].reverse()) {
    await deleteItem(target, target.username, id).catch(() => left.push(id));
  }
  return left;
}
