/** A member's privileges grouped the way the role editor groups them: kind, then area (the shared catalogue). */
import { PRIVILEGE_AREAS, PRIVILEGES, type PrivilegeArea, type PrivilegeKind } from '../../../shared/privileges.ts';

export interface PrivilegeGroup {
  kind: PrivilegeKind | 'other';
  area: PrivilegeArea | 'other';
  privileges: { id: string; label: string }[];
}

export function groupPrivileges(held: readonly string[]): PrivilegeGroup[] {
  const have = new Set(held);
  const groups: PrivilegeGroup[] = [];
  for (const kind of ['general', 'administrative'] as const) {
    for (const area of PRIVILEGE_AREAS) {
      const privileges = PRIVILEGES.filter((p) => p.kind === kind && p.area === area && have.has(p.id)).map((p) => ({ id: p.id, label: p.label }));
      if (privileges.length) groups.push({ kind, area, privileges });
    }
  }
  const known = new Set(PRIVILEGES.map((p) => p.id));
  const other = held.filter((id) => !known.has(id)).sort();
  if (other.length) groups.push({ kind: 'other', area: 'other', privileges: other.map((id) => ({ id, label: id })) });
  return groups;
}
