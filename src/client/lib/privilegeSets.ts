/**
 * The privilege catalogue as the role editor shows it — kind (general / administrative), then
 * area — and the set arithmetic the editor needs: what a selection implies, what a change adds
 * and removes, and how two roles compare. Everything is about *effective* privileges: a role
 * holds what it names plus what those imply (the portal stores it that way too).
 */
import {
  PRIVILEGE_AREAS,
  PRIVILEGES,
  privilegeById,
  withImplied,
  prerequisitesOf,
  type PrivilegeArea,
  type PrivilegeDef,
  type PrivilegeKind,
} from '../../shared/privileges.ts';

export interface CatalogueSection {
  kind: PrivilegeKind;
  area: PrivilegeArea;
  privileges: readonly PrivilegeDef[];
}

export const PRIVILEGE_KINDS: readonly PrivilegeKind[] = ['general', 'administrative'];

export const KIND_TITLES: Record<PrivilegeKind | 'other', string> = {
  general: 'General privileges',
  administrative: 'Administrative privileges',
  other: 'Other privileges',
};

/** Every (kind, area) that has privileges, in catalogue order. */
export const CATALOGUE_SECTIONS: readonly CatalogueSection[] = PRIVILEGE_KINDS.flatMap((kind) =>
  PRIVILEGE_AREAS.flatMap((area) => {
    const privileges = PRIVILEGES.filter((p) => p.kind === kind && p.area === area);
    return privileges.length ? [{ kind, area, privileges }] : [];
  }),
);

const ORDER = new Map<string, number>(CATALOGUE_SECTIONS.flatMap((s) => s.privileges).map((p, i) => [p.id, i]));

/** Catalogue order; ids the catalogue does not know go last, alphabetically. */
export function sortByCatalogue(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => (ORDER.get(a) ?? Infinity) - (ORDER.get(b) ?? Infinity) || a.localeCompare(b));
}

export function effectivePrivileges(selected: Iterable<string>): Set<string> {
  return withImplied(selected);
}

/**
 * For every privilege that a selected one implies: which selected privileges include it
 * ("included by Edit with full control"). Transitive implications count.
 */
export function impliedBy(selected: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of new Set(selected)) {
    for (const implied of withImplied([id])) {
      if (implied === id) continue;
      const by = out.get(implied) ?? [];
      by.push(id);
      out.set(implied, by);
    }
  }
  return out;
}

/** Required privileges of `id` that `effective` lacks. */
export function missingRequirements(id: string, effective: ReadonlySet<string>): string[] {
  return (privilegeById(id)?.requires ?? []).filter((r) => !effective.has(r));
}

/**
 * Ticking privileges: they are named, and so is every privilege they need (transitively) that the
 * role does not hold yet — the portal refuses a role with an unmet prerequisite. `added` lists
 * those needed ones, for the editor to say what it ticked.
 */
export function tickPrivileges(value: readonly string[], ids: readonly string[]): { next: string[]; added: string[] } {
  const held = withImplied(value);
  const added = sortByCatalogue([...prerequisitesOf(ids)].filter((id) => !held.has(id)));
  return { next: [...new Set([...value, ...ids, ...added])], added };
}

/**
 * Unticking privileges: they are dropped, and so is every named privilege that then lacks one it
 * needs (ticked because of it). `removed` lists those dependents.
 */
export function untickPrivileges(value: readonly string[], ids: readonly string[]): { next: string[]; removed: string[] } {
  let next = value.filter((id) => !ids.includes(id));
  const removed: string[] = [];
  for (;;) {
    const held = withImplied(next);
    const orphaned = next.filter((id) => missingRequirements(id, held).length > 0);
    if (!orphaned.length) break;
    removed.push(...orphaned);
    next = next.filter((id) => !orphaned.includes(id));
  }
  return { next, removed: sortByCatalogue(removed) };
}

export interface PrivilegeDiff {
  added: string[];
  removed: string[];
}

/** What saving `after` over `before` changes, in effect (implied privileges included). */
export function diffPrivileges(before: Iterable<string>, after: Iterable<string>): PrivilegeDiff {
  const was = withImplied(before);
  const will = withImplied(after);
  return {
    added: sortByCatalogue([...will].filter((id) => !was.has(id))),
    removed: sortByCatalogue([...was].filter((id) => !will.has(id))),
  };
}

export interface PrivilegeComparison {
  onlyA: string[];
  onlyB: string[];
  both: string[];
}

/** Two roles side by side, in effect. */
export function comparePrivileges(a: Iterable<string>, b: Iterable<string>): PrivilegeComparison {
  const inA = withImplied(a);
  const inB = withImplied(b);
  return {
    onlyA: sortByCatalogue([...inA].filter((id) => !inB.has(id))),
    onlyB: sortByCatalogue([...inB].filter((id) => !inA.has(id))),
    both: sortByCatalogue([...inA].filter((id) => inB.has(id))),
  };
}

/** Does the text match the privilege's label or id (case-insensitive)? */
export function privilegeMatches(p: PrivilegeDef, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  return !f || p.label.toLowerCase().includes(f) || p.id.toLowerCase().includes(f) || p.area.includes(f);
}
