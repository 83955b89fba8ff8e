/**
 * Test data made through the REST API (as the owner would, before the SDK reads it), each test
 * with its own tag so that tests sharing a worker's portal do not see each other's items.
 */
import { insertMember } from '../../support/members.ts';
import type { TestService } from '../../support/service.ts';

function check<T>(answer: any, what: string): T {
  if (answer?.error) throw new Error(`${what}: ${JSON.stringify(answer.error)}`);
  return answer;
}

export async function addItem(svc: TestService, owner: string, fields: Record<string, string>): Promise<string> {
  const token = await svc.tokenFor(owner);
  const answer = check<{ id: string }>(await svc.post(`content/users/${owner}/addItem`, fields, token), `addItem ${fields.title}`);
  return answer.id;
}

export async function shareItem(svc: TestService, owner: string, itemId: string, sharing: Record<string, string>) {
  const token = await svc.tokenFor(owner);
  check(await svc.post(`content/users/${owner}/shareItems`, { items: itemId, ...sharing }, token), `share ${itemId}`);
}

export async function createGroup(svc: TestService, owner: string, title: string, tags: string): Promise<string> {
  const token = await svc.tokenFor(owner);
  const answer = check<{ group: { id: string } }>(await svc.post('community/createGroup', { title, tags, access: 'org' }, token), `createGroup ${title}`);
  return answer.group.id;
}

export async function addToGroup(svc: TestService, groupId: string, usernames: string[], by: string) {
  const token = await svc.tokenFor(by);
  check(await svc.post(`community/groups/${groupId}/addUsers`, { users: usernames.join(',') }, token), `addUsers ${groupId}`);
}

/**
 * A new publisher with the demo password and no content: for a test that lists everything a user
 * owns (the demo accounts' content grows with every test sharing the worker's portal).
 */
export async function newPublisher(svc: TestService, name: string): Promise<string> {
  const username = `${name}_${Math.random().toString(36).slice(2, 8)}`;
  await insertMember(svc.db, username, svc.orgId, 'org_publisher');
  return username;
}

/** A tag no other test uses. */
export const uniqueTag = (name: string) => `sdk-${name}-${Math.random().toString(36).slice(2, 8)}`;
