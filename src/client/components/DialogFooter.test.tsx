/**
 * Dialog layout (issue 39): the footer sits outside the part of a dialog that scrolls, so a long
 * dialog's last fields never slide under it; and every dialog with a footer is laid out this way.
 */
import { Modal } from '@mantine/core';
import { screen } from '@testing-library/react';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { DialogFooter, DialogLayout, DialogScroll, DialogTop } from './DialogFooter.tsx';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.tsx') && !path.endsWith('.test.tsx') ? [path] : [];
  });
}

describe('DialogLayout', () => {
  it('scrolls the body only: the footer and the top are outside the scrolling region', async () => {
    const style = document.createElement('style');
    // The app's stylesheet as the browser gets it (Vite leaves CSS out of jsdom tests).
    style.textContent = readFileSync('src/client/app/global.css', 'utf8');
    document.head.append(style);
    try {
      renderWithProviders(
        <Modal opened onClose={() => {}} title="Tall dialog">
          <form aria-label="Tall form">
            <DialogLayout>
              <DialogTop>
                <span>Tabs</span>
              </DialogTop>
              <DialogScroll>
                <div style={{ height: 3000 }}>Body</div>
                <label>
                  Last field <input />
                </label>
              </DialogScroll>
              <DialogFooter>
                <button type="submit">Save</button>
              </DialogFooter>
            </DialogLayout>
          </form>
        </Modal>,
      );
      const save = await screen.findByRole('button', { name: 'Save' });
      const footer = save.closest('[data-dialog-footer]') as HTMLElement;
      const scroll = screen.getByRole('textbox', { name: 'Last field' }).closest('[data-dialog-scroll]') as HTMLElement;
      expect(scroll).not.toBeNull();
      expect(scroll.contains(footer)).toBe(false);
      expect(scroll.contains(screen.getByText('Tabs'))).toBe(false);
      expect(footer.style.position).not.toBe('sticky');
      expect(scroll.style.overflowY).toBe('auto');
      expect(scroll.style.minHeight).toMatch(/^0(px)?$/);
      // The footer is still inside the form, so Enter and its submit button submit it.
      expect(save.closest('form')).toBe(screen.getByRole('form', { name: 'Tall form' }));
      // The modal's content no longer scrolls itself: only the layout's scrolling region does.
      const content = footer.closest('.mantine-Modal-content') as HTMLElement;
      expect(getComputedStyle(content).overflow).toBe('hidden');
      expect(getComputedStyle(content).display).toBe('flex');
    } finally {
      // Test files share a worker's document: the app's stylesheet must not move what the next file looks for.
      style.remove();
    }
  });

  it('is used by every dialog that has a footer', () => {
    const footers = sources('src/client').filter((path) => /<(DialogFooter|ConfirmActions)\b/.test(readFileSync(path, 'utf8')));
    const withoutLayout = footers.filter((path) => !path.endsWith('ConfirmActions.tsx') && !readFileSync(path, 'utf8').includes('<DialogLayout'));
    expect(footers.length).toBeGreaterThan(30);
    expect(withoutLayout).toEqual([]);
  });
});
