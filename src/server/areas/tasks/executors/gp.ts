/**
 * GPService: submit a job to the asynchronous geoprocessing task at the task URL (its parameters
 * as the job's inputs, with the administrator token the task was created with) and follow the job
 * to its end. Succeeds only when the service reports esriJobSucceeded.
 */
import { taskSettingsOf } from '../../../config.ts';
import { parseJson, safeUrl, send } from './http.ts';
import { RunFailed, type Executor } from './types.ts';
import { trimEnd } from '../../../../shared/trim.ts';

const ENDED_BADLY = new Set(['esriJobFailed', 'esriJobTimedOut', 'esriJobCancelled', 'esriJobCancelling', 'esriJobDeleted', 'esriJobDeleting']);

/** A task URL may name the task or its submitJob operation. */
export const gpTaskBase = (url: string) => trimEnd(url, '/').replace(/\/submitJob$/i, '');

function errorOf(body: Record<string, unknown>): string | null {
  const e = body.error as { code?: number; message?: string; details?: unknown[] } | undefined;
  if (!e) return null;
  return `${e.code ?? ''} ${e.message ?? 'error'}${Array.isArray(e.details) && e.details.length ? ` (${e.details.join('; ')})` : ''}`.trim();
}

function messagesOf(body: Record<string, unknown>): string {
  const m = Array.isArray(body.messages) ? (body.messages as { type?: string; description?: string }[]) : [];
  return m
    .filter((x) => x.type === 'esriJobMessageTypeError' || x.type === 'esriJobMessageTypeWarning')
    .map((x) => x.description)
    .filter(Boolean)
    .slice(0, 5)
    .join('; ');
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(new RunFailed('The service stopped while the job was running.'))), { once: true });
  });

export const executeGp: Executor = async ({ ctx, task, signal }) => {
  if (!task.task_url) throw new RunFailed('The task has no taskURL.');
  if (!task.run_token) throw new RunFailed('The task has no administrator token; update it with the token field.');
  const base = gpTaskBase(task.task_url);
  const form = new URLSearchParams({ f: 'json', token: task.run_token });
  for (const [name, value] of Object.entries(task.parameters)) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  const settings = taskSettingsOf(ctx.config);
  const submitted = await send(`${base}/submitJob`, ctx.config, { method: 'POST', body: form.toString(), signal });
  if (submitted.status !== 200) throw new RunFailed(`submitJob at ${safeUrl(base)} answered HTTP ${submitted.status}.`);
  const job = parseJson(submitted.text, 'submitJob');
  const err = errorOf(job);
  if (err) throw new RunFailed(`submitJob failed: ${err}`);
  const jobId = typeof job.jobId === 'string' ? job.jobId : null;
  if (!jobId || !/^[\w.-]{1,200}$/.test(jobId)) throw new RunFailed('submitJob did not answer with a job id.');
  const deadline = Date.now() + settings.gpTimeoutMs;
  let status = typeof job.jobStatus === 'string' ? job.jobStatus : 'esriJobSubmitted';
  let last: Record<string, unknown> = job;
  while (status !== 'esriJobSucceeded') {
    if (ENDED_BADLY.has(status)) {
      const why = messagesOf(last);
      throw new RunFailed(`Job ${jobId} ended with ${status}${why ? `: ${trimEnd(why, '.')}` : ''}.`);
    }
    if (Date.now() > deadline) throw new RunFailed(`Job ${jobId} did not finish within ${Math.round(settings.gpTimeoutMs / 1000)} s (last status ${status}).`);
    await sleep(settings.gpPollMs, signal);
    const polled = await send(`${base}/jobs/${encodeURIComponent(jobId)}?${new URLSearchParams({ f: 'json', token: task.run_token })}`, ctx.config, {
      method: 'GET',
      signal,
    });
    if (polled.status !== 200) throw new RunFailed(`The status of job ${jobId} answered HTTP ${polled.status}.`);
    last = parseJson(polled.text, 'The job status');
    const pollErr = errorOf(last);
    if (pollErr) throw new RunFailed(`The status of job ${jobId} could not be read: ${pollErr}`);
    status = typeof last.jobStatus === 'string' ? last.jobStatus : 'unknown';
  }
  const results = last.results && typeof last.results === 'object' ? Object.keys(last.results) : [];
  return `Job ${jobId} succeeded${results.length ? `; results: ${results.join(', ')}` : ''}.`;
};
