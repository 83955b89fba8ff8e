/** The words of the "Add users" dialog: counts, and what the eligibility rule says about each name. */
import type { Eligibility } from './eligibility.ts';

// Counts written as digits without grouping, as the dialog's texts (and their tests) read them.
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the eligibility list says about a name: a short word and a sentence. */
export function describeEligibility(e: Eligibility): { badge: string; color: string; detail: string } {
  switch (e.kind) {
    case 'checking':
      return { badge: 'Checking', color: 'gray', detail: 'Looking this name up…' };
    case 'unchecked':
      return { badge: 'Not checked', color: 'gray', detail: 'Could not be looked up; the portal decides when it is sent.' };
    case 'ok':
      return { badge: 'Will be added', color: 'green', detail: 'A member of your organization.' };
    case 'promote':
      return { badge: 'Made manager', color: 'blue', detail: 'Already a member of the group: will be made a manager.' };
    case 'in-group':
      return {
        badge: 'Already in the group',
        color: 'gray',
        detail: `Already the group's ${e.as === 'owner' ? 'owner' : e.as}: left out.`,
      };
    case 'disabled':
      return { badge: 'Disabled', color: 'red', detail: 'The account is disabled: left out.' };
    case 'outside':
      return { badge: 'Not in your organization', color: 'orange', detail: e.note };
    case 'outside-refused':
      return { badge: 'Not found', color: 'red', detail: `${e.reason} Left out.` };
  }
}
