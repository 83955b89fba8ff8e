/**
 * Runs a bulk action as a job the administrator can pause, resume and come back to: on a portal
 * that offers member jobs (this portal's local extra), the service runs it and this tab follows its
 * progress; elsewhere (ArcGIS Online, Enterprise) this tab runs it, a slice of members at a time,
 * writing its place after each slice (savedRun.ts) so a closed tab can resume it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { controlMemberJob, getMemberJob } from '../../../api/memberJobs.ts';
import { groupKeys } from '../../../api/queries/groups.ts';
import { historyKeys } from '../../../api/queries/history.ts';
import { portalKeys } from '../../../api/queries/portal.ts';
import { roleKeys } from '../../../api/queries/roles.ts';
import { userKeys } from '../../../api/queries/users.ts';
import { usePortalCapabilities } from '../../../lib/capabilities.ts';
import type { BulkAction, BulkKind } from './plan.ts';
import { runBulkAction, type MemberOutcome } from './run.ts';
import { announceRun, clearRun, saveRun, type SavedRun } from './savedRun.ts';
import { serverOutcomes, startServerJob } from './serverRun.ts';

export interface BulkRunState {
  mode: 'server' | 'browser';
  kind: BulkKind;
  phase: 'starting' | 'running' | 'paused' | 'finished';
  done: number;
  total: number;
  /** Once finished: one outcome per member. */
  outcomes?: Map<string, MemberOutcome>;
  /** A server job's id (its results can be undone as one action). */
  jobId?: string;
}

/** Members a browser run sends before writing its place (and looking whether it was paused). */
const SLICE = 20;
const POLL_MS = 1000;

export function useBulkRun(orgId: string, username: string) {
  const caps = usePortalCapabilities();
  const queryClient = useQueryClient();
  const [state, setState] = useState<BulkRunState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const paused = useRef(false);
  const browserRun = useRef<Extract<SavedRun, { mode: 'browser' }> | null>(null);
  const serverJob = useRef<{ jobId: string; names?: readonly string[] } | null>(null);

  const finish = useCallback(
    (kind: BulkKind, outcomes: Map<string, MemberOutcome>, total: number, mode: BulkRunState['mode'], jobId?: string) => {
      clearRun(orgId, username);
      setState({ mode, kind, phase: 'finished', done: total, total, outcomes, jobId });
      for (const queryKey of [userKeys.members(orgId), ['users'], roleKeys.all(orgId), historyKeys.all, groupKeys.all, portalKeys.all, userKeys.self])
        void queryClient.invalidateQueries({ queryKey });
    },
    [orgId, username, queryClient],
  );

  const runBrowser = useCallback(async () => {
    let run = browserRun.current!;
    paused.current = false;
    setState({ mode: 'browser', kind: run.kind, phase: 'running', done: run.total - run.pending.length, total: run.total });
    while (run.pending.length && !paused.current) {
      const slice = run.pending.slice(0, SLICE);
      const before = run.total - run.pending.length;
      const outcomes = await runBulkAction(orgId, run.action, slice, (done) =>
        setState((s) => (s ? { ...s, done: before + Math.min(done, slice.length) } : s)),
      );
      run = { ...run, pending: run.pending.slice(slice.length), outcomes: [...run.outcomes, ...outcomes] };
      browserRun.current = run;
      saveRun(orgId, username, run);
    }
    if (run.pending.length) {
      run = { ...run, paused: true };
      browserRun.current = run;
      saveRun(orgId, username, run);
      setState({ mode: 'browser', kind: run.kind, phase: 'paused', done: run.total - run.pending.length, total: run.total });
      return;
    }
    finish(run.kind, new Map(run.outcomes), run.total, 'browser');
  }, [orgId, username, finish]);

  /** Follows a server job until it ends (or this tab leaves). */
  const followServer = useCallback(
    async (kind: BulkKind) => {
      const job = serverJob.current;
      if (!job) return;
      const status = await getMemberJob(orgId, job.jobId);
      if (status.state === 'done' || status.state === 'cancelled') {
        finish(kind, await serverOutcomes(orgId, status, kind, job.names), status.total, 'server', job.jobId);
        return;
      }
      setState({ mode: 'server', kind, phase: status.state === 'paused' ? 'paused' : 'running', done: status.done, total: status.total });
    },
    [orgId, finish],
  );

  // Leaving (the dialog closed): a browser run stops after its slice and keeps its place to resume from.
  useEffect(
    () => () => {
      paused.current = true;
    },
    [],
  );

  useEffect(() => {
    if (state?.mode !== 'server' || state.phase === 'finished' || state.phase === 'starting') return;
    const timer = setTimeout(() => followServer(state.kind).catch(setError), POLL_MS);
    return () => clearTimeout(timer);
  }, [state, followServer]);

  const start = (action: BulkAction, names: string[]) => {
    setError(null);
    if (caps.localExtras) {
      setState({ mode: 'server', kind: action.kind, phase: 'starting', done: 0, total: names.length });
      startServerJob(orgId, action, names)
        .then(({ jobId, job }) => {
          serverJob.current = { jobId, names };
          saveRun(orgId, username, { mode: 'server', kind: action.kind, jobId, total: job.total });
          announceRun();
          setState({ mode: 'server', kind: action.kind, phase: 'running', done: job.done, total: job.total });
        })
        .catch(setError);
      return;
    }
    browserRun.current = { mode: 'browser', kind: action.kind, action, pending: names, outcomes: [], total: names.length, paused: false };
    saveRun(orgId, username, browserRun.current);
    announceRun();
    runBrowser().catch(setError);
  };

  /** Takes up a run left by a closed tab (or this page before). */
  const attach = (saved: SavedRun) => {
    setError(null);
    if (saved.mode === 'server') {
      serverJob.current = { jobId: saved.jobId };
      setState({ mode: 'server', kind: saved.kind, phase: 'running', done: 0, total: saved.total });
      followServer(saved.kind).catch(setError);
      return;
    }
    browserRun.current = saved;
    setState({ mode: 'browser', kind: saved.kind, phase: 'paused', done: saved.total - saved.pending.length, total: saved.total });
  };

  const control = (verb: 'pause' | 'resume' | 'cancel') => {
    if (!state) return;
    if (state.mode === 'server' && serverJob.current) {
      controlMemberJob(orgId, serverJob.current.jobId, verb)
        .then(({ job }) => setState((s) => (s ? { ...s, phase: job.state === 'paused' ? 'paused' : 'running', done: job.done } : s)))
        .catch(setError);
      return;
    }
    if (verb === 'pause') paused.current = true;
    else if (verb === 'resume') runBrowser().catch(setError);
    else if (browserRun.current) {
      const run = browserRun.current;
      const cancelled = run.pending.map((n): [string, MemberOutcome] => [n, { ok: false, detail: 'Cancelled before this member was reached.' }]);
      finish(run.kind, new Map([...run.outcomes, ...cancelled]), run.total, 'browser');
    }
  };

  return { state, error, start, attach, control, reset: () => setState(null) };
}
