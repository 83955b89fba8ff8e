/**
 * Every page, dialog, drawer and menu the accessibility check (e2e/a11y.spec.ts) opens: one list,
 * so a new one is checked by adding an entry here. `open` starts from wherever the previous
 * target left the page, goes to its address and waits until the thing to check is on screen.
 * A target that leaves no dialog or menu open is a page: the spec also lays it out at the reflow sizes.
 */
import { expect, type Dialog, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './support.ts';

export interface A11yContext {
  /** Ids of objects made for the check (a webhook with a delivery, a task with a run). */
  webhookId: string;
  taskTitle: string;
  consoleClientId: string;
  /** A web map that uses a layer and is used by an app (its dependencies tab has both directions). */
  dependentMapId: string;
  /** A CSV item added as a file: its "Data and files" tab offers "Replace the data". */
  fileItemId: string;
}

export interface A11yTarget {
  name: string;
  /** Signed out (sign-in pages) or signed in as the administrator. */
  as: 'anonymous' | 'admin';
  open: (page: Page, ctx: A11yContext) => Promise<void>;
}

/**
 * Opens a page of the console. From another page of the console the address changes in place (as a
 * link would, through the router's popstate) instead of reloading the app: a reload per target was a
 * good part of the sweep's time. The same address, or coming from elsewhere, loads it.
 */
async function goTo(page: Page, path: string): Promise<void> {
  const here = new URL(page.url());
  const inApp = here.protocol.startsWith('http') && !here.pathname.startsWith('/sharing/') && here.pathname !== '/sign-in';
  // A dialog left open by the target before may hold changes, and then the console rightly keeps the
  // page (its dirty-form guard blocks in-app navigation): load the next page afresh, saying yes to
  // the browser's "leave this page?" (beforeunload) if it asks.
  const dialogOpen = inApp && (await page.getByRole('dialog').count()) > 0;
  if (!inApp || dialogOpen || `${here.pathname}${here.search}` === path) {
    const leave = (d: Dialog) => void d.accept();
    if (dialogOpen) page.once('dialog', leave);
    await page.goto(path);
    page.off('dialog', leave);
    return;
  }
  // The DOM, not the accessibility tree: an open dialog hides the page behind it from the latter.
  const heading = () => page.evaluate(() => document.querySelector('main h1')?.textContent ?? null);
  const before = await heading();
  await page.evaluate((to) => {
    window.history.pushState(window.history.state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  // The router renders the new page once its code is loaded; until then the last page's heading stays.
  await expect.poll(heading, { timeout: 20_000 }).not.toBe(before);
}

async function page1(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await goTo(page, path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
  // Lists load after the page frame: wait until nothing is loading.
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 10_000 });
}

/** Opens the demo collaboration by name: another spec may have added one that sorts first. */
async function openDemoCollaboration(page: Page): Promise<void> {
  const demo = page.getByRole('main').getByRole('button', { name: /^Demo and Partner field data/ });
  if ((await demo.getAttribute('aria-expanded')) !== 'true') await demo.click();
}

/**
 * Until the dialog is on screen. No pause after it: the sweep's context asks for reduced motion, so
 * dialogs and menus open without a transition (theme.ts), and the spec waits for any CSS transition
 * still running before each check (a11y.spec.ts settle). Fixed pauses of 200–250 ms here and after
 * menus added about 9 s to the sweep.
 */
async function dialog(page: Page, name: string | RegExp): Promise<void> {
  await expect(page.getByRole('dialog', { name })).toBeVisible({ timeout: 10_000 });
}

const firstRowLink = (page: Page, table: string) => page.getByRole('table', { name: table }).getByRole('row').nth(1).getByRole('link').first();

export const A11Y_TARGETS: A11yTarget[] = [
  {
    name: 'sign-in',
    as: 'anonymous',
    open: async (page) => {
      await page.goto('/sign-in');
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    },
  },
  {
    name: 'portal OAuth sign-in (/sharing/rest/oauth2/authorize)',
    as: 'anonymous',
    open: async (page, ctx) => {
      const origin = new URL(page.url()).origin;
      await page.goto(
        `/sharing/rest/oauth2/authorize?client_id=${ctx.consoleClientId}&response_type=code&redirect_uri=${encodeURIComponent(`${origin}/oauth-callback`)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      );
      await expect(page.getByRole('button').first()).toBeVisible();
    },
  },
  { name: 'overview', as: 'admin', open: (page) => page1(page, '/overview', /./) },
  { name: 'members', as: 'admin', open: (page) => page1(page, '/members', 'Members') },
  {
    name: 'members: add member dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('button', { name: 'Add member' }).click();
      await dialog(page, 'Add member');
    },
  },
  {
    name: 'members: add from a CSV file dialog, with its preview',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('button', { name: 'Add from a CSV file' }).click();
      await dialog(page, 'Add members from a CSV file');
      const rows = [
        'Username,Email,Password,Role,User type',
        'a11y_csv_one,one@example.com,A11y.Check.71,Publisher,Creator',
        'user1,u1@example.com,short,Wizard,Viewer',
      ];
      await page.locator('input[type="file"]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
      await expect(page.getByRole('table', { name: 'Rows of the file' })).toContainText('Already a member');
    },
  },
  {
    name: 'members: delete a member, with what they own',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members/publisher1', 'Pat Publisher');
      await page.getByRole('button', { name: 'Delete member' }).click();
      await dialog(page, /^Delete/);
      await expect(page.getByTestId('owned-webhooks-count')).toBeVisible();
      await expect(page.getByTestId('owned-items-count')).toBeVisible();
    },
  },
  {
    name: "members: a member's menu",
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('button', { name: 'More actions for user1' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    name: 'members: unlock sign-in confirmation',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('button', { name: 'More actions for user1' }).click();
      await page.getByRole('menuitem', { name: 'Unlock sign-in' }).click();
      await dialog(page, 'Unlock sign-in for user1');
    },
  },
  {
    name: 'members: disable account confirmation',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('button', { name: 'More actions for user1' }).click();
      await page.getByRole('menuitem', { name: 'Disable account' }).click();
      await dialog(page, 'Disable the account of user1');
    },
  },
  {
    name: 'members: bulk disable preview',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members', 'Members');
      await page.getByRole('checkbox', { name: 'Select user1' }).check();
      await page.getByRole('button', { name: 'Act on selection' }).click();
      await page.getByRole('menuitem', { name: 'Disable' }).click();
      await dialog(page, 'Disable: 1 member');
    },
  },
  { name: 'members: member page', as: 'admin', open: (page) => page1(page, '/members/user1', 'Uma User') },
  {
    name: 'members: change user type dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members/user1', 'Uma User');
      await page.getByRole('button', { name: 'Change user type' }).click();
      await dialog(page, 'Change user type of Uma User');
    },
  },
  {
    name: 'members: reset password dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members/user1', 'Uma User');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await dialog(page, 'Reset the password of user1');
    },
  },
  {
    name: 'member lifecycle: expiration dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members/user1', 'Uma User');
      await page.getByRole('button', { name: /^(Set|Change) expiration$/ }).click();
      await dialog(page, 'Expiration of user1');
    },
  },
  { name: 'member lifecycle: inactivity policies', as: 'admin', open: (page) => page1(page, '/members/policies', 'Inactivity policies') },
  {
    name: 'member lifecycle: new inactivity policy dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/members/policies', 'Inactivity policies');
      await page.getByRole('button', { name: 'New policy' }).click();
      await dialog(page, 'New inactivity policy');
      // The move fields too: role and user type.
      await page.getByRole('dialog').getByText('Move to a role and user type').click();
    },
  },
  { name: 'members: transfer wizard', as: 'admin', open: (page) => page1(page, '/members/transfer', /./) },
  {
    // The member picker with a member chosen (its clear button shown) and its list open again.
    name: 'members: transfer wizard, new owner list',
    as: 'admin',
    open: async (page) => {
      // Loaded, not routed: after the wizard's empty page (the target before) the heading would not change.
      await page.goto('/members/transfer?from=admin');
      await page.getByRole('button', { name: 'Next: new owner' }).click({ timeout: 20_000 });
      const owner = page.getByRole('combobox', { name: 'New owner' });
      await owner.fill('publisher1');
      await page.getByRole('option', { name: /publisher1/ }).click();
      await expect(page.getByRole('button', { name: 'Clear new owner' })).toBeVisible();
      await owner.click();
      await expect(page.getByRole('option', { name: /publisher1/ })).toHaveAttribute('aria-selected', 'true', { timeout: 10_000 });
    },
  },
  { name: 'roles', as: 'admin', open: (page) => page1(page, '/roles', 'Roles') },
  {
    name: 'roles: compare roles dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/roles', 'Roles');
      await page.getByRole('button', { name: 'Compare roles' }).click();
      await dialog(page, 'Compare roles');
    },
  },
  { name: 'roles: new role with the privilege checklist', as: 'admin', open: (page) => page1(page, '/roles/new', 'New role') },
  {
    name: 'roles: a role',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/roles', 'Roles');
      await page
        .getByRole('link', { name: /^(Edit|View) / })
        .first()
        .click();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Roles');
    },
  },
  {
    name: 'roles: delete confirmation',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/roles', 'Roles');
      // Built-in roles cannot be deleted (their buttons are aria-disabled): the spec's custom role can.
      await page
        .getByRole('button', { name: /^Delete A11y role / })
        .first()
        .click();
      await dialog(page, /^Delete the role/);
    },
  },
  { name: 'groups', as: 'admin', open: (page) => page1(page, '/groups', 'Groups') },
  {
    name: 'groups: create group dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/groups', 'Groups');
      await page.getByRole('button', { name: 'Create group' }).click();
      await dialog(page, 'Create group');
    },
  },
  {
    name: 'groups: a group',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/groups', 'Groups');
      await page.getByRole('main').getByRole('link').filter({ hasNotText: /^\d/ }).first().click();
      await expect(page.getByRole('button', { name: 'Add users' })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 10_000 });
    },
  },
  {
    name: 'groups: add users dialog',
    as: 'admin',
    open: async (page) => {
      await page.getByRole('button', { name: 'Add users' }).click();
      await dialog(page, /^Add users to/);
    },
  },
  {
    name: 'groups: add users dialog, names checked and the member picker open',
    as: 'admin',
    open: async (page) => {
      const add = page.getByRole('dialog', { name: /^Add users to/ });
      await add.getByRole('textbox', { name: /^Or paste a list/ }).fill('user1 partner_admin nobody_here');
      await expect(add.getByRole('table', { name: 'Who will be added' })).toBeVisible();
      await expect(add.getByTestId('names-summary')).not.toHaveText(/^Checking/, { timeout: 10_000 });
      await add.getByRole('combobox', { name: /^Find members/ }).click();
      await expect(page.getByRole('option').first()).toBeVisible({ timeout: 10_000 });
    },
  },
  {
    name: 'groups: change owner dialog, the member picker open',
    as: 'admin',
    open: async (page) => {
      // The add users dialog is still open: Escape closes an open list first, then the dialog.
      for (let i = 0; i < 3 && (await page.getByRole('dialog').count()) > 0; i++) await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.getByRole('button', { name: 'Change owner' }).click();
      await dialog(page, /^Change the owner of/);
      await page
        .getByRole('dialog')
        .getByRole('combobox', { name: /^New owner/ })
        .click();
      await expect(page.getByRole('option').first()).toBeVisible({ timeout: 10_000 });
    },
  },
  {
    name: 'groups: delete confirmation',
    as: 'admin',
    open: async (page) => {
      // The change owner dialog is still open: Escape closes an open list first, then the dialog.
      for (let i = 0; i < 3 && (await page.getByRole('dialog').count()) > 0; i++) await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.getByRole('button', { name: 'Delete group' }).click();
      await dialog(page, /^Delete .*\?$/);
    },
  },
  { name: 'content', as: 'admin', open: (page) => page1(page, '/content', 'Content') },
  {
    name: 'content: add item dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/content', 'Content');
      await page.getByRole('button', { name: 'Add item' }).click();
      await dialog(page, 'Add item');
    },
  },
  {
    name: 'content: an item',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/content', 'Content');
      await firstRowLink(page, 'Content').click();
      await expect(page.getByRole('button', { name: 'Delete item' })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 10_000 });
    },
  },
  {
    name: "content: a file item's data tab (replace the data)",
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, `/content/items/${ctx.fileItemId}`, /^A11y CSV/);
      await page.getByRole('tab', { name: 'Data and files' }).click();
      await expect(page.getByRole('button', { name: 'Replace the data' })).toBeVisible();
    },
  },
  {
    name: 'content: delete confirmation',
    as: 'admin',
    open: async (page) => {
      await page.getByRole('button', { name: 'Delete item' }).click();
      await dialog(page, /^Delete “/);
    },
  },
  {
    name: "content: an item's dependencies tab, everything that depends on it",
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, `/content/items/${ctx.dependentMapId}`, /^A11y map of the layer/);
      await page.getByRole('tab', { name: 'Dependencies' }).click();
      await page.getByRole('switch', { name: 'Show everything that depends on it' }).check();
      await expect(page.getByRole('heading', { level: 2, name: 'Used by' })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 15_000 });
    },
  },
  {
    name: 'content: deprecate confirmation with its impact check',
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, `/content/items/${ctx.dependentMapId}`, /^A11y map of the layer/);
      await page.getByRole('tab', { name: 'Content status' }).click();
      await page.getByRole('radio', { name: /^Deprecated/ }).check();
      await page.getByRole('button', { name: 'Apply status' }).click();
      await dialog(page, /^Deprecate “/);
      await expect(page.getByRole('dialog').getByText('Checking what uses this item…')).toHaveCount(0, { timeout: 15_000 });
    },
  },
  {
    name: 'content: deprecate and point to a replacement',
    as: 'admin',
    open: async (page) => {
      await page.getByRole('dialog').getByRole('button', { name: 'Deprecate and point to a replacement…' }).click();
      await dialog(page, /and point to a replacement$/);
      await expect(page.getByRole('dialog', { name: /and point to a replacement$/ }).getByText('Checking what uses this item…')).toHaveCount(0, {
        timeout: 15_000,
      });
    },
  },
  { name: 'recycle bin', as: 'admin', open: (page) => page1(page, '/recycle-bin', 'Recycle bin') },
  {
    name: 'recycle bin: delete permanently dialog',
    as: 'admin',
    open: async (page) => {
      const form = (path: string, fields: Record<string, string>) => page.request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...fields } });
      const { token } = (await (await form('generateToken', { username: 'admin', password: DEMO_PASSWORD, referer: 'a11y' })).json()) as { token: string };
      const title = `A11y recycled ${Date.now().toString(36)}`;
      const { id } = (await (await form('content/users/admin/addItem', { token, title, type: 'Web Map', text: '{}' })).json()) as { id: string };
      await form(`content/users/admin/items/${id}/delete`, { token });
      await page1(page, '/recycle-bin', 'Recycle bin');
      await page.getByRole('checkbox', { name: `Select ${title}` }).check();
      await page.getByRole('button', { name: 'Delete permanently (1)' }).click();
      await dialog(page, 'Delete 1 item permanently');
    },
  },
  { name: 'dependencies: not used by anything', as: 'admin', open: (page) => page1(page, '/dependencies', 'Dependencies') },
  {
    name: 'dependencies: used by many',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/dependencies', 'Dependencies');
      await page.getByRole('tab', { name: 'Used by many' }).click();
      await expect(page.getByRole('table', { name: 'Used by many' })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 10_000 });
    },
  },
  { name: 'webhooks', as: 'admin', open: (page) => page1(page, '/webhooks', 'Webhooks') },
  {
    name: 'webhooks: create webhook dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/webhooks', 'Webhooks');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await dialog(page, 'Create webhook');
    },
  },
  {
    name: 'webhooks: a webhook',
    as: 'admin',
    open: async (page, ctx) => {
      await goTo(page, `/webhooks/${ctx.webhookId}`);
      await expect(page.getByRole('table', { name: 'Delivery attempts' }).getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });
    },
  },
  {
    name: 'webhooks: a delivery drawer',
    as: 'admin',
    open: async (page) => {
      await page
        .getByRole('table', { name: 'Delivery attempts' })
        .getByRole('button', { name: /^Attempt / })
        .first()
        .click();
      await dialog(page, /^Delivery of/);
    },
  },
  {
    name: 'webhooks: service webhook details drawer',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/webhooks?tab=services', 'Webhooks');
      await page
        .getByRole('table', { name: 'Service webhooks' })
        .getByRole('button', { name: /^Show / })
        .first()
        .click();
      await dialog(page, /./);
      await expect(page.getByRole('table', { name: 'Service webhook details' })).toBeVisible();
    },
  },
  { name: 'tasks', as: 'admin', open: (page) => page1(page, '/tasks', 'Scheduled tasks') },
  {
    name: 'tasks: new task dialog with the CRON builder',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/tasks', 'Scheduled tasks');
      await page.getByRole('button', { name: 'New task' }).click();
      await dialog(page, 'New scheduled task');
      await page.getByRole('dialog').getByText('Advanced (CRON fields)').click();
    },
  },
  {
    name: 'tasks: run history drawer',
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, '/tasks', 'Scheduled tasks');
      await page.getByRole('button', { name: `Actions for ${ctx.taskTitle}` }).click();
      await page.getByRole('menuitem', { name: 'Run history' }).click();
      await dialog(page, `Run history: ${ctx.taskTitle}`);
      await expect(page.getByRole('table', { name: 'Runs' }).getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });
    },
  },
  {
    name: "tasks: a task's menu",
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, '/tasks', 'Scheduled tasks');
      await page.getByRole('button', { name: `Actions for ${ctx.taskTitle}` }).click();
      await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
    },
  },
  {
    name: 'tasks: delete confirmation',
    as: 'admin',
    open: async (page, ctx) => {
      await page1(page, '/tasks', 'Scheduled tasks');
      await page.getByRole('button', { name: `Actions for ${ctx.taskTitle}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'collaborations', as: 'admin', open: (page) => page1(page, '/collaborations', 'Collaborations') },
  {
    // The administrator hosts the demo collaboration: a host removes participants (a guest would leave).
    name: 'collaborations: remove participant confirmation',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/collaborations', 'Collaborations');
      await openDemoCollaboration(page);
      await page
        .getByRole('button', { name: /^Remove / })
        .first()
        .click();
      await dialog(page, /^Remove .*\?$/);
    },
  },
  {
    name: 'collaborations: new collaboration dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/collaborations', 'Collaborations');
      await page.getByRole('button', { name: 'New collaboration' }).click();
      await dialog(page, 'New collaboration');
    },
  },
  {
    // The host invites a participant to a collaboration it hosts (the demo one is open first).
    name: 'collaborations: invite participant dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/collaborations', 'Collaborations');
      await openDemoCollaboration(page);
      await page.getByRole('button', { name: 'Invite participant' }).first().click();
      await dialog(page, /^Invite a participant to /);
    },
  },
  {
    // The host shows the demo collaboration's invitation of the partner again from its row.
    name: 'collaborations: show invitation dialog',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/collaborations', 'Collaborations');
      await openDemoCollaboration(page);
      // The button appears once the collaboration's invitations have loaded; click waits for it.
      await page
        .getByRole('button', { name: /^Show invitation of / })
        .first()
        .click();
      await dialog(page, /^Invitation of /);
      await expect(page.getByTestId('invitation-details')).toBeVisible();
    },
  },
  {
    // An invitation the partner has not answered: when it expires, and Refresh invitation (set up through the REST API).
    name: 'collaborations: show unanswered invitation (expiry, refresh)',
    as: 'admin',
    open: async (page) => {
      const form = async (path: string, fields: Record<string, string>) =>
        (await page.request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...fields } })).json();
      const { token } = await form('generateToken', { username: 'admin', password: DEMO_PASSWORD });
      const base = 'portals/self/collaborations';
      const c = await form(`${base}/createCollaboration`, { token, name: `A11y expiry ${Date.now().toString(36)}` });
      const { workspaceId } = await form(`${base}/${c.id}/addWorkspace`, { token, name: 'Shared' });
      const [partner] = (await form(`${base}/participantCandidates`, { token, q: 'Partner Organization' })).portals;
      await form(`${base}/${c.id}/inviteParticipant`, {
        token,
        participantPortalId: partner.id,
        workspaces: JSON.stringify({ [workspaceId]: 'send' }),
        expiration: '24',
      });
      await page.goto('/collaborations');
      await expect(page.getByRole('heading', { level: 1, name: 'Collaborations' })).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: new RegExp(`^${c.name}`) }).click();
      await page
        .getByRole('table', { name: `Participants of ${c.name}` })
        .getByRole('button', { name: 'Show invitation of Partner Organization' })
        .click();
      await dialog(page, /^Invitation of /);
      await expect(page.getByTestId('invitation-expiry')).toBeVisible();
    },
  },
  {
    // The administrator's organization invited by the partner (set up through the REST API), then Decline.
    name: 'collaborations: decline invitation confirmation',
    as: 'admin',
    open: async (page) => {
      const form = async (path: string, fields: Record<string, string>) =>
        (await page.request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...fields } })).json();
      const { token } = await form('generateToken', { username: 'partner_admin', password: DEMO_PASSWORD });
      const base = 'portals/self/collaborations';
      const c = await form(`${base}/createCollaboration`, { token, name: `A11y invitation ${Date.now().toString(36)}` });
      const { workspaceId } = await form(`${base}/${c.id}/addWorkspace`, { token, name: 'Shared' });
      const [demo] = (await form(`${base}/participantCandidates`, { token, q: 'Demo Organization' })).portals;
      await form(`${base}/${c.id}/inviteParticipant`, { token, participantPortalId: demo.id, workspaces: JSON.stringify({ [workspaceId]: 'receive' }) });
      // A fresh load: the list of invitations is read anew.
      await page.goto('/collaborations');
      await expect(page.getByRole('heading', { level: 1, name: 'Collaborations' })).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: `Decline the invitation to ${c.name}` }).click();
      await dialog(page, /^Decline the invitation to /);
    },
  },
  { name: 'activity', as: 'admin', open: (page) => page1(page, '/activity', 'Activity') },
  {
    name: 'activity: undo dialog',
    as: 'admin',
    open: async (page) => {
      // A change that can be undone (an item shared with the organization), then its undo dialog.
      const form = async (path: string, fields: Record<string, string>) =>
        (await page.request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...fields } })).json();
      const { token } = await form('generateToken', { username: 'admin', password: DEMO_PASSWORD });
      const { id } = await form('content/users/admin/addItem', { token, title: `A11y undo ${Date.now().toString(36)}`, type: 'Web Map', text: '{}' });
      await form(`content/users/admin/items/${id}/share`, { token, org: 'true' });
      await page1(page, '/activity', 'Activity');
      await page
        .getByRole('table', { name: 'Organization activity' })
        .getByRole('checkbox', { name: /^Select to undo: / })
        .first()
        .check();
      await page.getByRole('button', { name: 'Undo selected (1)' }).click();
      await dialog(page, 'Undo 1 change');
      await expect(page.getByRole('table', { name: 'Changes to undo' })).toBeVisible();
    },
  },
  { name: 'settings', as: 'admin', open: (page) => page1(page, '/settings', 'Settings') },
  {
    name: 'header: portal switcher menu',
    as: 'admin',
    open: async (page) => {
      await page1(page, '/overview', /./);
      await page
        .getByRole('banner')
        .getByRole('button', { name: /127\.0\.0\.1|localhost|portal/i })
        .first()
        .click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    name: 'header: account menu',
    as: 'admin',
    open: async (page) => {
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /^Account menu for/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
];
