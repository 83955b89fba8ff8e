/**
 * Notebook, Insights, scene-cooking and workflow tasks: the run is handed to the external runner
 * configured for the type (TASK_RUNNER_*_URL, config.ts). The runner receives a JSON POST describing the run and
 * must answer 2xx once the work is done; anything else fails the run with what it said. Without a
 * runner the run fails, saying which setting is missing — no run succeeds without its work.
 */
import { RUNNER_ENV, taskSettingsOf } from '../../../config.ts';
import { itemExistsInOrg } from '../repo/members.ts';
import { safeUrl, send } from './http.ts';
import { RunFailed, type Executor } from './types.ts';

const RUNNER_TIMEOUT_MS = 10 * 60_000;

export const executeWithRunner: Executor = async ({ ctx, task, runId, scheduledAt, signal }) => {
  const url = taskSettingsOf(ctx.config).runnerUrls[task.type];
  if (!url) throw new RunFailed(`No runner is configured for ${task.type} tasks: set ${RUNNER_ENV[task.type as keyof typeof RUNNER_ENV]} to the runner's URL.`);
  if (task.item_id) {
    // The item may have been deleted (or moved to another organization) since the task was made.
    if (!(await itemExistsInOrg(ctx.db, task.item_id, task.org_id))) throw new RunFailed(`The item ${task.item_id} the task runs on no longer exists.`);
  }
  const body = JSON.stringify({
    taskId: task.id,
    runId,
    type: task.type,
    itemId: task.item_id,
    owner: task.owner_username,
    orgId: task.org_id,
    parameters: task.parameters,
    scheduledAt,
  });
  const res = await send(url, ctx.config, { method: 'POST', body, contentType: 'application/json', timeoutMs: RUNNER_TIMEOUT_MS, signal });
  const excerpt = res.text.slice(0, 500).trim();
  if (res.status < 200 || res.status > 299) throw new RunFailed(`The runner at ${safeUrl(url)} answered HTTP ${res.status}${excerpt ? `: ${excerpt}` : ''}.`);
  return `Runner ${safeUrl(url)} completed the run${excerpt ? `: ${excerpt}` : '.'}`;
};
