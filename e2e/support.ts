/** Shared steps of the end-to-end specs. */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Portal.Demo.2026';

/** Signs in with the password form; `timeout` for the first page after it (else the config's wait). */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD, timeout?: number): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout });
}

const formSessions = new Map<string, Record<string, string>>();

/**
 * Signed in as `username` for a spec that checks what comes after signing in: the first time in a
 * spec file with the password form (signIn), afterwards by handing a new page the tab storage that
 * sign-in left (the console keeps its session in sessionStorage and reads it at start), set before
 * the page's first script. Each form sign-in costs a page load and the portal's deliberately slow
 * password check (scrypt, about half a CPU-second). Nothing is loaded here: the spec goes to its page.
 */
export async function signInOncePerFile(page: Page, username: string, timeout?: number): Promise<void> {
  const key = `${test.info().file} ${username}`;
  const stored = formSessions.get(key);
  if (stored) {
    await page.addInitScript((entries) => {
      if (sessionStorage.length === 0) for (const [k, v] of Object.entries(entries)) sessionStorage.setItem(k, v);
    }, stored);
    return;
  }
  await signIn(page, username, DEMO_PASSWORD, timeout);
  formSessions.set(key, await page.evaluate(() => Object.fromEntries(Object.entries(sessionStorage))));
}

export async function signOut(page: Page): Promise<void> {
  const item = page.getByRole('menuitem', { name: 'Sign out' });
  // A click that lands while the menu is still opening is lost (the menu stays open, nothing is
  // sent): open the menu and choose the item again until the menu closes, which starts the sign-out.
  await expect(async () => {
    if (!(await item.isVisible())) await page.getByRole('button', { name: /^Account menu for/ }).click();
    await item.click({ timeout: 5_000 });
    await expect(item).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
}

/**
 * Searches the Members page and waits for the list to answer the search. The box applies its words
 * after a pause; a click before the list re-renders can land on a row (or an open menu) that the
 * answer then replaces.
 */
export async function searchMembers(page: Page, words: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search members' }).fill(words);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(words)}(&|$)`));
  await expect(page.getByRole('table', { name: 'Members' })).not.toHaveAttribute('aria-busy', 'true');
}

/**
 * A screenshot kept as an artifact under e2e/artifacts/: the whole page, or only what the window
 * shows while a menu is open. A full-page capture resizes the window for a moment, which closes an
 * open menu (Chromium 156) and scrolls a wide table back to its start, so the next click on the
 * menu's item would wait for a menu that is gone.
 */
export async function snap(page: Page, name: string): Promise<void> {
  const menuOpen = (await page.getByRole('menu').count()) > 0;
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: !menuOpen });
}

/** A new member of the administrator's organization (`token` is an administrator's), a User unless `role` says otherwise. */
export async function createMember(
  request: APIRequestContext,
  token: string,
  member: { username: string; password: string; firstname: string; lastname: string; role?: string },
): Promise<void> {
  const made = await request.post('/portaladmin/security/users/createUser', {
    form: { f: 'json', token, email: `${member.username}@example.com`, role: 'org_user', ...member },
  });
  expect((await made.json()).status).toBe('success');
}
