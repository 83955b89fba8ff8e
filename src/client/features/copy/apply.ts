/**
 * Carrying out a copy plan: the groups it creates first, then each item created (or updated) in the
 * target in dependency order, with its data (JSON text with ids rewritten, or its file as is),
 * thumbnail, resources and sharing, and last the relationships among the copies. When a step
 * fails, every item this run created is deleted again (as solution.js rolls a failed deployment
 * back), so nothing is left half-made; items it updated keep the change already made to them.
 */
import { describeError, type Item } from '../../api/index.ts';
import { sourceKeyword, type CopyPlan, type PlanStep } from './plan.ts';
import { emptyProgress, type CopyProgress, type ItemProgress } from './progress.ts';
import { rewriteData } from './rewrite.ts';
import { addRelationshipIn, createGroupIn, deleteGroupIn, shareIn } from './sharing.ts';
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
  /** Ids of the items this copy created in the target (this run or the one it resumed): what undo deletes. */
  created: string[];
  /** Ids of the groups it created there. */
  createdGroups: string[];
  /** Groups already in the target the copies were not shared to, and why (the rest of the copy went on). */
  skippedGroups: SkippedGroup[];
}

export interface SkippedGroup {
  /** The target group's id. */
  id: string;
  title: string;
  reason: string;
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
  /** Where an earlier run of the same plan stopped (changed in place as this run goes). */
  progress?: CopyProgress;
  /**
   * Called whenever the progress changes, to keep it (progress.ts): with the source id of the one
   * item whose entry changed, or none when groups, relationships or several items did.
   */
  onSave?: (progress: CopyProgress, changedItem?: string) => void;
}

const decoder = new TextDecoder();

/**
 * The item's extent and spatial reference as Add Item and Update take them. An item's extent is in
 * WGS84 on every portal, so it travels as it is (no projection, no geometry service); the spatial
 * reference names the item's data's own and travels with it. Only sent when the source has them.
 */
export function geometryFieldsOf(item: Pick<Item, 'extent' | 'spatialReference'>): Pick<ItemWrite, 'extent' | 'spatialReference'> {
  const corners = Array.isArray(item.extent) ? item.extent.flat() : [];
  const extent = corners.length === 4 && corners.every((n) => typeof n === 'number' && Number.isFinite(n)) ? corners.join(',') : undefined;
  return { extent, spatialReference: item.spatialReference || undefined };
}

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
    ...geometryFieldsOf(item),
    culture: item.culture || undefined,
    properties: item.properties ? JSON.stringify(item.properties) : undefined,
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

/**
 * Creates the groups the plan creates (or finds the ones it uses): source group id → target group id.
 * A group the plan skips for a reason is noted in the result, not shared to.
 */
async function prepareGroups(
  plan: CopyPlan,
  target: PortalConnection,
  progress: CopyProgress,
  save: (changedItem?: string) => void,
  skipped: SkippedGroup[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const g of plan.groups ?? []) {
    const done = progress.groups[g.source.id];
    if (done) out.set(g.source.id, done.targetId);
    else if (g.action === 'skip' && g.existing && g.reason) skipped.push({ id: g.existing.id, title: g.existing.title, reason: g.reason });
    else if (g.action === 'use' && g.existing) out.set(g.source.id, g.existing.id);
    else if (g.action === 'create') {
      const id = await createGroupIn(target, g.source, g.access);
      progress.groups[g.source.id] = { targetId: id, created: true };
      save();
      out.set(g.source.id, id);
    }
  }
  return out;
}

/** Shares the copy as planned. A group the target refuses (membership changed since the plan, say) is noted as skipped: the copy goes on. */
async function share(
  step: PlanStep,
  plan: CopyPlan,
  target: PortalConnection,
  at: { owner: string; targetId: string },
  groups: ReadonlyMap<string, string>,
  skipped: SkippedGroup[],
): Promise<void> {
  const to = (step.groups ?? []).map((g) => groups.get(g)).filter((g): g is string => !!g);
  const level = step.access?.copied ?? 'private';
  if (level === 'private' && !to.length) return;
  const refused = await shareIn(target, at.owner, at.targetId, { everyone: level === 'public', org: level === 'org', groups: to });
  for (const id of refused) {
    if (skipped.some((s) => s.id.toLowerCase() === id.toLowerCase())) continue;
    const g = (plan.groups ?? []).find((p) => groups.get(p.source.id)?.toLowerCase() === id.toLowerCase());
    const title = g?.existing?.title ?? g?.source.title ?? id;
    skipped.push({ id, title, reason: `The target did not let you share to group ${title} — the copies were not shared to it.` });
  }
}

async function relate(plan: CopyPlan, target: PortalConnection, idMap: ReadonlyMap<string, string>): Promise<void> {
  for (const step of plan.steps) {
    for (const r of step.relationships ?? []) {
      const origin = idMap.get(step.source.id.toLowerCase());
      const destination = idMap.get(r.destinationId.toLowerCase());
      // An existing identical relationship is kept by the portal: a second run adds nothing.
      if (origin && destination) await addRelationshipIn(target, origin, destination, r.type);
    }
  }
}

/**
 * Runs the plan; resolves with what was copied, or rejects with CopyFailed after rolling back.
 * `progress` (from an earlier run cut short) says which items are already copied: those are
 * skipped, an item written but not finished is updated, and nothing is created twice.
 */
/** What the copy has created so far (items and groups), for the result and for an undo or rollback of it. */
function noteCreated(result: CopyResult, progress: CopyProgress): void {
  result.created = Object.values(progress.items)
    .filter((p) => p.created)
    .map((p) => p.targetId);
  result.createdGroups = Object.values(progress.groups)
    .filter((g) => g.created)
    .map((g) => g.targetId);
}

export async function applyPlan(plan: CopyPlan, source: PortalConnection, target: PortalConnection, options: ApplyOptions = {}): Promise<CopyResult> {
  const progress: CopyProgress = options.progress ?? emptyProgress();
  const save = (changedItem?: string) => options.onSave?.(progress, changedItem);
  const idMap = new Map<string, string>();
  for (const step of plan.steps) if (step.existing) idMap.set(step.source.id.toLowerCase(), step.existing.id);
  for (const [id, p] of Object.entries(progress.items)) idMap.set(id, p.targetId);
  const result: CopyResult = { items: [], created: [], createdGroups: [], skippedGroups: [] };
  const rollBack = async (step: PlanStep, err: unknown): Promise<never> => {
    noteCreated(result, progress);
    const leftBehind = await undoCopy(result, target);
    for (const [id, p] of Object.entries(progress.items)) {
      if (!p.created || leftBehind.includes(p.targetId)) continue;
      delete progress.items[id];
      options.onProgress?.(plan.steps.find((s) => s.source.id.toLowerCase() === id)?.source.id ?? id, 'rolledBack');
    }
    for (const [id, g] of Object.entries(progress.groups)) if (g.created && !leftBehind.includes(g.targetId)) delete progress.groups[id];
    save();
    throw new CopyFailed(step, err, leftBehind);
  };
  let groups = new Map<string, string>();
  try {
    groups = await prepareGroups(plan, target, progress, save, result.skippedGroups);
  } catch (err) {
    if (plan.steps[0]) await rollBack(plan.steps[0], err);
    throw err;
  }
  for (const step of plan.steps) {
    const key = step.source.id.toLowerCase();
    const before = progress.items[key];
    if (before?.step === 'done') {
      result.items.push({ sourceId: step.source.id, targetId: before.targetId, title: step.source.title, action: before.created ? 'create' : 'update' });
      options.onProgress?.(step.source.id, 'done');
      continue;
    }
    options.onProgress?.(step.source.id, 'running');
    try {
      const write = await writeOf(step, source, target, idMap);
      let at: ItemProgress;
      if (before || step.existing) {
        at = before ?? { targetId: step.existing!.id, owner: step.existing!.owner, created: false, step: 'written' };
        await updateItem(target, at.owner, at.targetId, write);
      } else {
        at = { targetId: await addItem(target, write), owner: target.username, created: true, step: 'written' };
      }
      progress.items[key] = at;
      save(key);
      idMap.set(key, at.targetId);
      await copyResources(step, source, target, at.owner, at.targetId, at.created && !before);
      await share(step, plan, target, at, groups, result.skippedGroups);
      at.step = 'done';
      save(key);
      result.items.push({ sourceId: step.source.id, targetId: at.targetId, title: step.source.title, action: at.created ? 'create' : 'update' });
      options.onProgress?.(step.source.id, 'done');
    } catch (err) {
      options.onProgress?.(step.source.id, 'failed');
      await rollBack(step, err);
    }
  }
  if (!progress.relationshipsDone) {
    try {
      await relate(plan, target, idMap);
    } catch (err) {
      await rollBack(plan.steps[plan.steps.length - 1], err);
    }
    progress.relationshipsDone = true;
    save();
  }
  noteCreated(result, progress);
  return result;
}

/** Deletes the items (then the groups) a copy created: undo, and the rollback of a failed run. The ids it could not delete. */
export async function undoCopy(result: { created: readonly string[]; createdGroups?: readonly string[] }, target: PortalConnection): Promise<string[]> {
  const left: string[] = [];
  for (const id of [...result.created].reverse()) {
    await deleteItem(target, target.username, id).catch(() => left.push(id));
  }
  for (const id of result.createdGroups ?? []) await deleteGroupIn(target, id).catch(() => left.push(id));
  return left;
}
