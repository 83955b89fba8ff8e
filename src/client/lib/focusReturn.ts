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
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  const remember = useCallback(() => {
    opener.current = openerOf(document.activeElement);
  }, []);
  const restore = useCallback(() => {
    const el = opener.current;
    opener.current = null;
    // After the dialog has let go of focus (its trap ends as it closes).
    if (el) setTimeout(() => el.isConnected && el.focus(), 0);
  }, []);
  return { remember, restore };
}
