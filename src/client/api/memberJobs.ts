/**
 * Bulk member jobs, this portal's local extra (docs/member-jobs.md): the service runs a bulk action
 * on members as a job. Only call these when portals/self says `localExtras`.
 */
import { MEMBER_JOB_PATHS, type MemberJob, type MemberJobAction, type MemberJobResult, type MemberResultState } from '../../shared/contract/memberJobs.ts';
import { request } from './request.ts';

export type { MemberJob, MemberJobAction, MemberJobResult, MemberResultState };

const seg = encodeURIComponent;
const base = (orgId: string) => `portals/${seg(orgId)}/memberJobs`;

/** What the action sets: `newRole`, `newUserLicenseType` or `groupIds` (comma-separated). */
export type MemberJobExtras = { newRole?: string; newUserLicenseType?: string; groupIds?: string };

export function createMemberJob(orgId: string, action: MemberJobAction, usernames: readonly string[], extras: MemberJobExtras = {}) {
  return request<{ success: boolean; jobId: string; job: MemberJob }>(
    `${base(orgId)}/${MEMBER_JOB_PATHS[action]}`,
    { usernames: usernames.join(','), ...extras },
    { method: 'POST' },
  );
}

export function getMemberJob(orgId: string, jobId: string, signal?: AbortSignal): Promise<MemberJob> {
  return request(`${base(orgId)}/${seg(jobId)}`, {}, { method: 'GET', signal });
}

export function listMemberJobResults(orgId: string, jobId: string, q: { state?: MemberResultState; start?: number; num?: number } = {}) {
  return request<{ total: number; start: number; num: number; nextStart: number; results: MemberJobResult[] }>(
    `${base(orgId)}/${seg(jobId)}/results`,
    { state: q.state, start: q.start ?? 1, num: q.num ?? 100 },
    { method: 'GET' },
  );
}

/** Every result in `state`, page after page. */
export async function allMemberJobResults(orgId: string, jobId: string, state: MemberResultState): Promise<MemberJobResult[]> {
  const out: MemberJobResult[] = [];
  for (let start = 1; start > 0;) {
    const page = await listMemberJobResults(orgId, jobId, { state, start, num: 100 });
    out.push(...page.results);
    start = page.nextStart;
  }
  return out;
}

/** Undo a finished job as one action: a job of the inverse action over the members it changed. */
export function undoMemberJob(orgId: string, jobId: string): Promise<{ success: boolean; jobId: string; job: MemberJob }> {
  return request(`${base(orgId)}/${seg(jobId)}/undo`, {}, { method: 'POST' });
}

/** The job once it has ended (done or cancelled), read every `pollMs`. */
export async function memberJobEnded(orgId: string, jobId: string, pollMs = 500): Promise<MemberJob> {
  for (;;) {
    const job = await getMemberJob(orgId, jobId);
    if (job.state === 'done' || job.state === 'cancelled') return job;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * Undoes the job and follows the undo to its end: how many members were put back, and each one
 * left as it is with the portal's reason (changed since the job, say).
 */
export async function undoMemberJobToEnd(orgId: string, jobId: string): Promise<{ job: MemberJob; notPutBack: MemberJobResult[] }> {
  const { jobId: undoId } = await undoMemberJob(orgId, jobId);
  const job = await memberJobEnded(orgId, undoId);
  return { job, notPutBack: job.failed ? await allMemberJobResults(orgId, undoId, 'failed') : [] };
}

/** An undo's outcome in one sentence: members put back, and those left with their reasons. */
export function undoSummary({ job, notPutBack }: Awaited<ReturnType<typeof undoMemberJobToEnd>>): string {
  const back = `${job.succeeded} member${job.succeeded === 1 ? '' : 's'} put back`;
  if (!notPutBack.length) return `${back}.`;
  const shown = notPutBack.slice(0, 5).map((r) => `${r.username}: ${r.reason ?? 'not changed'}`);
  const more = notPutBack.length > shown.length ? `; and ${notPutBack.length - shown.length} more` : '';
  return `${back}; ${notPutBack.length} left as they are (${shown.join('; ')}${more}).`;
}

export function controlMemberJob(orgId: string, jobId: string, verb: 'pause' | 'resume' | 'cancel'): Promise<{ success: boolean; job: MemberJob }> {
  return request(`${base(orgId)}/${seg(jobId)}/${verb}`, {}, { method: 'POST' });
}
