/**
 * Who "Add users" would add, said before anything is sent: each chosen, pasted or uploaded name is
 * looked up among the organization's members (`portals/self/users/search`, `username:(a OR b …)`,
 * 25 names a request, `findMembersByUsername`) and in the group (`community/groups/<id>/users`, one request), and
 * judged by addUsers' own rule (src/shared/addUsersEligibility.ts) with the facts the console has —
 * already in the group (left out), a disabled account (left out), not in this organization (a
 * warning to confirm, or left out when the group or the caller's privileges keep outsiders away), or
 * fine.
 *
 * The organization's search cannot see other organizations' members, so a name it does not find is
 * either a member of another organization or no account at all: the console says both, and the
 * portal's answer to addUsers says which.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { findMembersByUsername, type GroupRecord, type GroupUsers, type MembershipAccess, type PortalUser } from '../../api/index.ts';
import { groupUsersQuery } from '../../api/queries/groups.ts';
import { addUsersVerdict, type AddUsersFacts, type AddUsersRefusal } from '../../../shared/addUsersEligibility.ts';

/** How long pasted text rests before its names are looked up. */
const RESOLVE_DEBOUNCE_MS = 300;

/** What addUsers would do with a name. */
export type Eligibility =
  | { kind: 'checking' }
  /** The lookup failed: the name is sent and the portal decides. */
  | { kind: 'unchecked' }
  | { kind: 'ok'; member: PortalUser }
  /** A plain member asked to become a manager: addUsers makes them one. */
  | { kind: 'promote'; member?: PortalUser }
  | { kind: 'in-group'; as: 'owner' | 'manager' | 'member'; member?: PortalUser }
  | { kind: 'disabled'; member: PortalUser }
  /** Not in this organization: another organization's member, or nobody; sent after a confirmation. */
  | { kind: 'outside'; note: string }
  /** Not in this organization, and the group or the member's privileges keep outsiders out: left out. */
  | { kind: 'outside-refused'; reason: string };

/** Names that are sent to addUsers. */
export const isSent = (e: Eligibility) => e.kind === 'ok' || e.kind === 'promote' || e.kind === 'outside' || e.kind === 'unchecked' || e.kind === 'checking';

/** A group's `membershipAccess`; a portal that leaves it out sets no restriction. */
export const membershipAccessOf = (group: Pick<GroupRecord, 'membershipAccess'>): MembershipAccess =>
  group.membershipAccess === 'org' || group.membershipAccess === 'collaboration' ? group.membershipAccess : 'none';

export const MEMBERSHIP_ACCESS_WORDS: Record<MembershipAccess, string> = {
  none: 'Anyone, including members of other organizations',
  org: 'Only members of this organization',
  collaboration: 'Members of this organization and of organizations in a partnered collaboration with it',
};

export interface Judge {
  groupUsers: GroupUsers | undefined;
  /** Lower-cased username → the member record, or null when the organization has no such member. */
  known: ReadonlyMap<string, PortalUser | null>;
  lookupFailed: boolean;
  access: MembershipAccess;
  /** Who adds: their privileges decide whether members of other organizations may be added. */
  caller: AddUsersFacts['caller'];
  as: 'members' | 'managers';
}

/** The group's membership of a lower-cased username. */
function inGroup(groupUsers: GroupUsers | undefined, key: string): 'owner' | 'admin' | 'member' | null {
  if (!groupUsers) return null;
  if (groupUsers.owner.toLowerCase() === key) return 'owner';
  if (groupUsers.admins.some((u) => u.toLowerCase() === key)) return 'admin';
  if (groupUsers.users.some((u) => u.toLowerCase() === key)) return 'member';
  return null;
}

/**
 * Why a name not found in the organization is left out. The console knows of an outsider only that
 * they are one, so the group's access and the caller's privileges are the refusals it can meet; of a
 * member found, only whether the account is disabled.
 */
const OUTSIDE_REFUSALS: Partial<Record<AddUsersRefusal, string>> = {
  'access-org': 'Not found in your organization, and this group accepts only members of your organization.',
  'external-not-allowed': 'Not found in your organization; adding members of other organizations needs the privilege to add external members to groups.',
};

export function judge(name: string, j: Judge): Eligibility {
  const key = name.toLowerCase();
  const member = j.known.get(key);
  const membership = inGroup(j.groupUsers, key);
  if (!membership && member === undefined) return j.lookupFailed ? { kind: 'unchecked' } : { kind: 'checking' };
  const candidate: AddUsersFacts['candidate'] = member
    ? { exists: true, membership, external: false, disabled: !!member.disabled }
    : // Not found by the organization's search: another organization's member, or nobody.
      member === null
      ? { membership, external: true }
      : { membership };
  const verdict = addUsersVerdict({ asManager: j.as === 'managers', group: { membershipAccess: j.access }, caller: j.caller, candidate });
  switch (verdict.kind) {
    case 'promote':
      return { kind: 'promote', member: member ?? undefined };
    case 'in-group':
      return { kind: 'in-group', as: verdict.as === 'admin' ? 'manager' : verdict.as, member: member ?? undefined };
    case 'refused':
      if (member && verdict.reason === 'disabled') return { kind: 'disabled', member };
      return { kind: 'outside-refused', reason: OUTSIDE_REFUSALS[verdict.reason] ?? 'Not found in your organization, and the portal would not add them.' };
    case 'add':
      if (member) return { kind: 'ok', member };
      return {
        kind: 'outside',
        note:
          j.access === 'collaboration'
            ? 'Not in your organization: added only if they belong to a partnered organization (or not at all if there is no such account).'
            : 'Not in your organization: a member of another organization, or no such account (the portal says which).',
      };
  }
}

/**
 * The lookups behind the judgement, for the names on screen: each name is looked up once (the
 * answers are kept while the dialog is open), after the text has rested.
 */
export function useEligibility(groupId: string, names: readonly string[]) {
  const groupUsers = useQuery(groupUsersQuery(groupId));
  const [known, setKnown] = useState<ReadonlyMap<string, PortalUser | null>>(new Map());
  const [failed, setFailed] = useState(false);
  const missing = useMemo(() => names.filter((n) => !known.has(n.toLowerCase())), [names, known]);
  const missingKey = missing.map((n) => n.toLowerCase()).join('\n');

  useEffect(() => {
    if (!missingKey) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setFailed(false);
      findMembersByUsername(missingKey.split('\n'), { signal: controller.signal }).then(
        (found) => setKnown((prev) => new Map([...prev, ...found])),
        () => {
          if (!controller.signal.aborted) setFailed(true);
        },
      );
    }, RESOLVE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [missingKey]);

  return {
    groupUsers: groupUsers.data,
    groupUsersFailed: groupUsers.isError,
    known,
    lookupFailed: failed,
    checking: (!!missing.length && !failed) || groupUsers.isPending,
  };
}
