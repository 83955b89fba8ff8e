/**
 * Focus back to the right control when a dialog or drawer opened from a menu closes. Mantine's
 * Modal/Drawer return focus to the element that had it when they opened — for a menu item that
 * element is gone once the menu closes, and focus would fall to the page. The menu's own button
 * (the element whose aria-controls names the menu) is the control that opened it.
 */
import { useCallback, useRef } from 'react';

export function openerOf(el: Element | null): HTMLElement | null {
  if (!(el instanceof HTMLElement)) return null;
  const menu = el.closest('[role="menu"]');
  const button = menu?.id ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`) : null;
  return button ?? el;
}

/**
 * `remember()` when opening (in the menu item's handler), `restore()` from the dialog's onClose.
 * The dialog's own return goes to the menu item, which is gone by then, so it does nothing.
 */
/** How long after a dialog closes a control drawn again gets the focus back. */
const REDRAW_WATCH_MS = 3_000;

export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  const remember = useCallback(() => {
    opener.current = openerOf(document.activeElement);
  }, []);
  const restore = useCallback(() => {
    const el = opener.current;
    opener.current = null;
    if (!el) return;
    // The list the control is in may draw its row again when it reads the change back (a member
    // disabled, a role changed): the control is then a new element with the same name.
    const label = el.getAttribute('aria-label');
    let focused: HTMLElement | null = null;
    const find = () => (el.isConnected ? el : label ? document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`) : null);
    const focus = () => {
      focused = find();
      focused?.focus();
    };
    // After the dialog has let go of focus (its trap ends as it closes).
    setTimeout(focus, 0);
    // For a moment after, focus that fell to the page because the control was drawn again goes to
    // the new one; focus the user moved elsewhere stays where it is.
    const until = Date.now() + REDRAW_WATCH_MS;
    const watch = () => {
      const lost = focused && !focused.isConnected && (document.activeElement === document.body || document.activeElement === null);
      if (lost) focus();
      if (Date.now() < until) setTimeout(watch, 100);
    };
    setTimeout(watch, 100);
  }, []);
  return { remember, restore };
}
