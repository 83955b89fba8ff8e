import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReturnFocus } from './focusReturn.ts';

/** A menu's button and one item of its menu, as Mantine draws them; answers the button. */
function menuWithItem(label: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.setAttribute('aria-label', label);
  button.setAttribute('aria-controls', 'menu-1');
  const menu = document.createElement('div');
  menu.id = 'menu-1';
  menu.setAttribute('role', 'menu');
  const item = document.createElement('button');
  item.setAttribute('role', 'menuitem');
  menu.append(item);
  document.body.append(button, menu);
  item.focus();
  return button;
}

describe('useReturnFocus', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.replaceChildren();
  });

  it("gives focus back to the menu's button, also when the list draws that button again after the dialog closed", () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useReturnFocus());
    const button = menuWithItem('More actions for dana');
    result.current.remember();
    document.getElementById('menu-1')!.remove();
    result.current.restore();
    vi.advanceTimersByTime(0);
    expect(document.activeElement).toBe(button);

    // The row is drawn again as the list reads the change back: the same control, a new element.
    const again = document.createElement('button');
    again.setAttribute('aria-label', 'More actions for dana');
    button.replaceWith(again);
    expect(document.activeElement).toBe(document.body);
    vi.advanceTimersByTime(200);
    expect(document.activeElement).toBe(again);
  });

  it('leaves focus the user moved elsewhere where it is', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useReturnFocus());
    menuWithItem('More actions for lee');
    result.current.remember();
    result.current.restore();
    vi.advanceTimersByTime(0);
    const search = document.createElement('input');
    document.body.append(search);
    search.focus();
    vi.advanceTimersByTime(5_000);
    expect(document.activeElement).toBe(search);
  });
});
