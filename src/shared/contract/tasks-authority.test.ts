import { describe, expect, it } from 'vitest';
import type { AuthorityHolder } from '../authority.ts';
import { BASE_ROLE_PRIVILEGES, withImplied } from '../privileges.ts';
import { authorityGrants } from '../authority.ts';
import { ALL_TASKS_AUTHORITY, mayScheduleTaskType, TASK_TYPES, type TaskType } from './tasks.ts';

const base = (role: keyof typeof BASE_ROLE_PRIVILEGES): AuthorityHolder => ({
  privileges: new Set(BASE_ROLE_PRIVILEGES[role]),
  isDefaultAdmin: role === 'org_admin',
});
const schedulable = (h: AuthorityHolder) => TASK_TYPES.filter((t) => mayScheduleTaskType(h, t));

// The table both halves read: the console offers exactly what the service's checkFields accepts.
describe('who may schedule which tasks', () => {
  it('gives a default administrator every type and the organization list', () => {
    expect(schedulable(base('org_admin'))).toEqual([...TASK_TYPES]);
    expect(authorityGrants(ALL_TASKS_AUTHORITY, base('org_admin'))).toBe(true);
  });

  it('gives a plain User the types that need only content creation', () => {
    const user = base('org_user');
    const expected: TaskType[] = ['UpdateInsightsWorkbook', 'ExecuteSceneCook', 'ExecuteWorkflowManager'];
    expect(schedulable(user)).toEqual(expected);
    expect(authorityGrants(ALL_TASKS_AUTHORITY, user)).toBe(false);
  });

  it('does not make a custom role with administrative privileges a default administrator', () => {
    // A custom role holding createReports has the base role org_admin on the wire, but is not a default administrator.
    const reporter: AuthorityHolder = { privileges: withImplied(['portal:user:createItem', 'portal:admin:createReports']), isDefaultAdmin: false };
    expect(mayScheduleTaskType(reporter, 'ExecuteReport')).toBe(true);
    expect(mayScheduleTaskType(reporter, 'GPService')).toBe(false);
    expect(authorityGrants(ALL_TASKS_AUTHORITY, reporter)).toBe(false);
  });

  it('refuses every type to a member who cannot create content', () => {
    expect(schedulable({ privileges: withImplied(['portal:user:joinGroup']), isDefaultAdmin: false })).toEqual([]);
  });
});
