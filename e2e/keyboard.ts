/**
 * Keyboard-only steps for the keyboard specs: no clicks, no filling of fields that do not have
 * focus. Focus moves with Tab (bounded), text goes in with keyboard.type / insertText, and every
 * focused control is checked to show a visible focus indicator.
 */
import { expect, type APIRequestContext, type FileChooser, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './support.ts';

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, { max = 80, back = false } = {}): Promise<void> {
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) {
      await expectVisibleFocus(page);
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  const where = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Focus never reached ${target}; it is on ${where}`);
}

/**
 * Opens the browser's file chooser from `opener` with Enter, as a keyboard user would. Each press
 * is made with focus checked on the opener; when no chooser comes within 15 s the press is made
 * again (at most 3 times). Once in a CI run on a loaded machine, one Enter on a focused drop zone
 * opened nothing, and the spec waited out its whole timeout for the chooser.
 */
export async function chooseFileByKeyboard(page: Page, opener: Locator): Promise<FileChooser> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    await tabTo(page, opener);
    const chooser = page.waitForEvent('filechooser', { timeout: 15_000 });
    await page.keyboard.press('Enter');
    try {
      return await chooser;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * The focused element shows a focus indicator while focus-visible: an outline or a ring
 * (box-shadow) on it, or — Mantine's text inputs — a border in the primary colour on it or on the
 * input's wrapper.
 */
export async function expectVisibleFocus(page: Page): Promise<void> {
  // Polled: Mantine fades the border colour in, so the first frame after focus is in between.
  await expect.poll(() => focusRing(page), { timeout: 2_000 }).toBe('ok');
}

function focusRing(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    if (!el.matches(':focus-visible')) return `focus is not visible on ${el.outerHTML.slice(0, 160)}`;
    const probe = document.createElement('span');
    probe.style.color = 'var(--mantine-primary-color-filled)';
    document.body.append(probe);
    const primary = getComputedStyle(probe).color;
    probe.remove();
    const shows = (node: Element) => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const shadow = style.boxShadow !== 'none';
      const border = parseFloat(style.borderTopWidth) > 0 && style.borderTopColor === primary;
      return outline || shadow || border;
    };
    const candidates = [el, el.parentElement, el.parentElement?.parentElement].filter((n): n is HTMLElement => !!n);
    return candidates.some(shows) ? 'ok' : `no visible focus on ${el.outerHTML.slice(0, 160)}`;
  });
}

/** Signs in on the sign-in page with the keyboard only (the username field has focus first). */
export async function keyboardSignIn(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/sign-in');
  const user = page.getByRole('textbox', { name: 'Username' });
  await expect(user).toBeFocused();
  await page.keyboard.type(username);
  await tabTo(page, page.getByRole('textbox', { name: 'Password', exact: true }));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
}

/** Signs out through the account menu, by keyboard. */
export async function keyboardSignOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: /^Account menu for/ });
  await tabTo(page, menu);
  await page.keyboard.press('Enter');
  const signOut = page.getByRole('menuitem', { name: 'Sign out' });
  await expect(signOut).toBeVisible();
  // Arrow keys move through a menu; Tab would leave it.
  for (let i = 0; i < 10 && !(await isFocused(signOut)); i++) await page.keyboard.press('ArrowDown');
  await expect(signOut).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Username' })).toBeVisible();
}

/** What the console's live regions last said. */
export const announced = (page: Page, politeness: 'polite' | 'assertive' = 'polite') => page.getByTestId(`announcer-${politeness}`);

/** The portal's REST API as a demo account — for setting the scene only. */
export async function apiAs(request: APIRequestContext, username: string) {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username, password: DEMO_PASSWORD, f: 'json' } })).json();
  return async (path: string, params: Record<string, string>, root = '/sharing/rest') => {
    const body = await (await request.post(`${root}/${path}`, { form: { ...params, f: 'json', token } })).json();
    if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
    return body;
  };
}
