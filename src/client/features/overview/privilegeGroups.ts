/** A member's privileges grouped the way the role editor groups them: kind, then area (the shared catalogue). */
import type { PrivilegeArea, PrivilegeKind } from '../../../shared/privileges.ts';
import { CATALOGUE_SECTIONS, sortByCatalogue } from '../../lib/privilegeSets.ts';

export interface PrivilegeGroup {
  kind: PrivilegeKind | 'other';
  area: PrivilegeArea | 'other';
  privileges: { id: string; label: string }[];
}

export function groupPrivileges(held: readonly string[]): PrivilegeGroup[] {
  const have = new Set(held);
  const groups: PrivilegeGroup[] = CATALOGUE_SECTIONS.flatMap(({ kind, area, privileges }) => {
    const mine = privileges.filter((p) => have.has(p.id)).map((p) => ({ id: p.id, label: p.label }));
    return mine.length ? [{ kind, area, privileges: mine }] : [];
  });
  const known = new Set<string>(CATALOGUE_SECTIONS.flatMap((s) => s.privileges.map((p) => p.id)));
  const other = sortByCatalogue(held.filter((id) => !known.has(id)));
  if (other.length) groups.push({ kind: 'other', area: 'other', privileges: other.map((id) => ({ id, label: id })) });
  return groups;
}
