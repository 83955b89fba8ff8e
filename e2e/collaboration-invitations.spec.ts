/**
 * Collaboration invitations from both sides (issue 39): the host invites the partner organization
 * by name; the partner's administrator sees the invitation and declines it; the host shows it
 * again and invites again; the partner accepts; both see the partner taking part. The changed
 * dialogs are used by keyboard and checked by axe; screenshots at 1440 and 390 px.
 */
import { expect, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { apiAs } from './keyboard.ts';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

const collaborationsPage = async (page: Page) => {
  await page.goto('/collaborations');
  await expect(page.getByRole('heading', { name: 'Collaborations', level: 1 })).toBeVisible();
};

test('the host invites the partner by name; the partner declines, is invited again and accepts', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const tag = Date.now().toString(36);
  const name = `Rivers ${tag}`;
  const admin = await apiAs(page.request, 'admin');
  const created = await admin('portals/self/collaborations/createCollaboration', { name, description: 'Gauges shared with the partner.' });
  await admin(`portals/self/collaborations/${created.id}/addWorkspace`, { name: 'Gauges', access: 'sendAndReceive' });
  const partnerId: string = (await admin('portals/self/collaborations/participantCandidates', { q: 'Partner Organization' })).portals[0].id;

  // The host: Invite participant, the organization chosen by name with the keyboard.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await collaborationsPage(page);
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  const participants = page.getByRole('table', { name: `Participants of ${name}` });
  const panel = page.getByRole('region').filter({ has: participants });
  await panel.getByRole('button', { name: 'Invite participant' }).click();
  const invite = page.getByRole('dialog', { name: `Invite a participant to ${name}` });
  const guestField = invite.getByRole('combobox', { name: /^Guest organization/ });
  await expect(guestField).toBeFocused();
  await page.keyboard.type('Partn');
  await expect(page.getByRole('option', { name: 'Partner Organization' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Demo Organization' })).toHaveCount(0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(guestField).toHaveValue('Partner Organization');
  // axe checks this dialog in the accessibility sweep (e2e/a11y-targets.ts); the new ones are checked below.
  await snap(page, 'collaboration-invitations-invite-1440');
  await invite.getByRole('button', { name: 'Create invitation' }).focus();
  await page.keyboard.press('Enter');
  const ready = page.getByRole('dialog', { name: 'Invitation ready' });
  await expect(ready.getByLabel('Invitation', { exact: true })).toContainText('Invited organization: Partner Organization');
  await expect(ready.getByLabel('Invitation', { exact: true })).toContainText('Gauges: send and receive');
  await expect(ready).not.toContainText(partnerId);
  // The invitation file for a guest on ArcGIS Enterprise (acceptCollaborationInvitation's invitationFile).
  const download = page.waitForEvent('download');
  await ready.getByRole('button', { name: 'Download invitation file' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.invite$/);
  await ready.getByRole('button', { name: 'Done' }).click();
  const partnerRow = participants.getByRole('row', { name: /Partner Organization/ });
  await expect(partnerRow).toContainText('invited');
  await expect(participants).not.toContainText(partnerId);

  // The partner's administrator, in a browser of their own: the invitation, declined after a confirmation.
  const guestContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const guest = await guestContext.newPage();
  await signIn(guest, 'partner_admin');
  await collaborationsPage(guest);
  const invitation = guest.getByRole('group', { name: `Invitation to ${name}` });
  await expect(invitation).toContainText('From Demo Organization');
  await expect(invitation).toContainText('Gauges: send and receive');
  await snap(guest, 'collaboration-invitations-guest-390');
  await invitation.getByRole('button', { name: `Decline the invitation to ${name}` }).click();
  const decline = guest.getByRole('dialog', { name: `Decline the invitation to ${name}?` });
  await expect(decline).toContainText('Demo Organization sees that your organization declined');
  await expectAxeClean(guest, '[role="dialog"]');
  await snap(guest, 'collaboration-invitations-decline-390');
  await decline.getByRole('button', { name: 'Decline invitation' }).focus();
  await guest.keyboard.press('Enter');
  await expect(decline).toHaveCount(0);
  await expect(invitation).toHaveCount(0);

  // The host sees it declined, shows the invitation again, and invites again.
  await page.reload();
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await expect(partnerRow).toContainText('declined');
  await expect(page.getByText('Partner Organization declined the invitation (by partner_admin)')).toBeVisible();
  await partnerRow.getByRole('button', { name: 'Show invitation of Partner Organization' }).click();
  const shown = page.getByRole('dialog', { name: 'Invitation of Partner Organization' });
  await expect(shown.getByTestId('invitation-details')).toContainText('Declined');
  await expect(shown.getByRole('button', { name: 'Copy invitation', exact: true })).toBeVisible();
  await expectAxeClean(page, '[role="dialog"]');
  await snap(page, 'collaboration-invitations-shown-1440');
  await page.keyboard.press('Escape');
  await expect(shown).toHaveCount(0);
  await partnerRow.getByRole('button', { name: 'Invite again: Partner Organization' }).click();
  const again = page.getByRole('dialog', { name: 'Invite Partner Organization again' });
  await expect(again.getByRole('textbox', { name: 'Guest organization' })).toHaveValue('Partner Organization');
  await again.getByRole('button', { name: 'Invite again' }).click();
  await expect(page.getByRole('dialog', { name: 'Invitation ready' }).getByTestId('invitation-details')).toContainText('Waiting for an answer');
  await page.getByRole('dialog', { name: 'Invitation ready' }).getByRole('button', { name: 'Done' }).click();
  await expect(partnerRow).toContainText('invited');

  // The partner accepts: the collaboration is theirs to see, with themselves active.
  await guest.reload();
  await guest.getByRole('button', { name: `Accept the invitation to ${name}` }).click();
  await expect(guest.getByRole('group', { name: `Invitation to ${name}` })).toHaveCount(0);
  const guestView = guest.getByRole('table', { name: `Participants of ${name}` });
  await expect(guestView.getByRole('row', { name: /Partner Organization/ })).toContainText('active');
  await snap(guest, 'collaboration-invitations-accepted-390');
  await guestContext.close();

  await page.reload();
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await expect(partnerRow).toContainText('active');
  await snap(page, 'collaboration-invitations-accepted-1440');
});
