/**
 * ExecuteReport: a report of the organization — its members, items or groups, as the task's
 * parameters say — written as a CSV file and stored as a new CSV item owned by the task's owner.
 */
import { Readable } from 'node:stream';
import { reportParameters, type ReportType } from '../../../../shared/contract/tasks.ts';
import { missingReportPrivileges } from '../../../http/policies.ts';
import type { Queryable } from '../../../store/db.ts';
import { memberAsCaller } from '../../users/service.ts';
import { csvCell, type CsvValue } from '../../../http/csv.ts';
import { recordEvent } from '../../../store/events.ts';
import { hexId } from '../../../store/ids.ts';
import { usernameOfMember } from '../repo/members.ts';
import { groupsReportRows, itemsReportRows, membersReportRows } from '../repo/reports.ts';
import { removeBlobs, insertItemRow } from '../../items/service.ts';
import { RunFailed, type Executor } from './types.ts';

type Cell = CsvValue;

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

const iso = (ms: number | string | null) => (ms === null || ms === undefined || Number(ms) < 0 ? '' : new Date(Number(ms)).toISOString());

async function reportRows(q: Queryable, orgId: string, type: ReportType): Promise<{ header: string[]; rows: Cell[][] }> {
  if (type === 'members') {
    const rows = await membersReportRows(q, orgId);
    return {
      header: ['username', 'fullName', 'email', 'role', 'customRole', 'disabled', 'created', 'lastLogin'],
      rows: rows.map((r) => [
        r.username,
        r.full_name,
        r.email,
        r.role,
        r.role_name,
        r.disabled,
        iso(r.created as number),
        iso((r.last_login as number) ?? null),
      ]),
    };
  }
  if (type === 'items') {
    const rows = await itemsReportRows(q, orgId);
    return {
      header: ['id', 'title', 'type', 'owner', 'access', 'size', 'created', 'modified'],
      rows: rows.map((r) => [r.id, r.title, r.type, r.owner, r.access, r.size, iso(r.created as number), iso(r.modified as number)]),
    };
  }
  const rows = await groupsReportRows(q, orgId);
  return {
    header: ['id', 'title', 'owner', 'access', 'members', 'created'],
    rows: rows.map((r) => [r.id, r.title, r.owner, r.access, r.members, iso(r.created as number)]),
  };
}

export const executeReport: Executor = async ({ ctx, task, scheduledAt }) => {
  const parsed = reportParameters.safeParse(task.parameters);
  if (!parsed.success)
    throw new RunFailed(`The report parameters are invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'parameters'} ${i.message}`).join('; ')}`);
  const { reportType } = parsed.data;
  // The report runs with its owner's authority as it is now: a member who lost the view privilege of
  // what the report lists since scheduling it (or never had it) gets no report.
  const owner = await memberAsCaller(ctx.db, task.owner_id);
  if (!owner) throw new RunFailed('The task owner no longer exists or is disabled.');
  const missing = missingReportPrivileges(owner, reportType);
  if (missing.length) throw new RunFailed(`The task owner lacks ${missing.join(', ')}, which a ${reportType} report needs.`);
  const { header, rows } = await reportRows(ctx.db, task.org_id, reportType);
  const csv = toCsv(header, rows);
  const day = new Date(scheduledAt).toISOString().slice(0, 16).replace('T', ' ');
  const title = `${parsed.data.title ?? task.title ?? `Organization ${reportType} report`} ${day} UTC`.trim();
  const key = ctx.blobs.newKey();
  const size = await ctx.blobs.write(key, Readable.from([Buffer.from(csv, 'utf8')]));
  const id = hexId();
  const now = ctx.clock.now();
  try {
    await ctx.db.tx(async (q) => {
      const ownerName = await usernameOfMember(q, task.owner_id);
      if (ownerName === undefined) throw new RunFailed('The task owner no longer exists.');
      await insertItemRow(q, {
        id,
        org_id: task.org_id,
        owner_id: task.owner_id,
        folder_id: null,
        title,
        type: 'CSV',
        name: `${reportType}-report-${new Date(scheduledAt).toISOString().slice(0, 10)}.csv`,
        type_keywords: ['CSV', 'Report'],
        tags: ['report', reportType],
        snippet: `Organization ${reportType} report (${rows.length} rows), made by scheduled task ${task.id}.`,
        data_kind: 'file',
        data_blob: key,
        data_mime: 'text/csv',
        size,
        created: now,
        modified: now,
      });
      await recordEvent(q, {
        orgId: task.org_id,
        source: 'item',
        operation: 'add',
        subjectId: id,
        actor: { userId: task.owner_id, username: ownerName },
        when: now,
        properties: { taskId: task.id },
        history: { owner: ownerName, title, data: { after: { title, type: 'CSV' }, taskId: task.id } },
      });
    });
  } catch (err) {
    await removeBlobs(ctx, [key]);
    throw err;
  }
  return `Created CSV item ${id} with ${rows.length} ${reportType}.`;
};
