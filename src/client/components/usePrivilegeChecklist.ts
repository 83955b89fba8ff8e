/**
 * The state of the privilege checklist: the filter, "only granted", what the role names and holds
 * in effect, the areas left to show, and ticking or unticking with what follows from it.
 */
import { useMemo, useState } from 'react';
import { privilegeById, type PrivilegeDef } from '../../shared/privileges.ts';
import { CATALOGUE_SECTIONS, effectivePrivileges, impliedBy, privilegeMatches, tickPrivileges, untickPrivileges } from '../lib/privilegeSets.ts';

export const labelsOf = (ids: readonly string[]) => ids.map((id) => privilegeById(id)?.label ?? id).join(', ');

export function usePrivilegeChecklist({ value, onChange, readOnly }: { value: readonly string[]; onChange?: (next: string[]) => void; readOnly: boolean }) {
  const [filter, setFilter] = useState('');
  const [onlyGranted, setOnlyGranted] = useState(readOnly);
  const selected = useMemo(() => new Set(value), [value]);
  const effective = useMemo(() => effectivePrivileges(value), [value]);
  const included = useMemo(() => impliedBy(value), [value]);

  const visible = (p: PrivilegeDef) => privilegeMatches(p, filter) && (!onlyGranted || effective.has(p.id));
  const sections = CATALOGUE_SECTIONS.map((s) => ({ ...s, shown: s.privileges.filter(visible) })).filter((s) => s.shown.length > 0);
  const impliedCount = [...effective].filter((id) => !selected.has(id)).length;

  // What was ticked or unticked along with the user's choice, said beside the count (and spoken).
  const [followNote, setFollowNote] = useState('');
  const set = (ids: readonly string[], on: boolean) => {
    if (readOnly || !onChange) return;
    // A privilege comes with what it needs, and goes with what needs it: the portal refuses a role
    // with an unmet prerequisite, so the checklist never builds one.
    if (on) {
      const { next, added } = tickPrivileges(value, ids);
      setFollowNote(added.length ? `Also ticked, because ${labelsOf(ids.filter((id) => !effective.has(id)))} needs it: ${labelsOf(added)}.` : '');
      onChange(next);
    } else {
      const { next, removed } = untickPrivileges(value, ids);
      setFollowNote(removed.length ? `Also unticked, because it needs ${labelsOf(ids)}: ${labelsOf(removed)}.` : '');
      onChange(next);
    }
  };

  return { filter, setFilter, onlyGranted, setOnlyGranted, selected, effective, included, sections, impliedCount, followNote, set };
}
