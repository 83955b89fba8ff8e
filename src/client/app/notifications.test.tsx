/** Toasts (issue 39, minor): they open below the header, never over its controls. */
import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';

describe('toast position', () => {
  it('puts a toast in the top-right container, offset below the 60px header', async () => {
    const style = document.createElement('style');
    // The app's stylesheet as the browser gets it (Vite leaves CSS out of jsdom tests).
    style.textContent = readFileSync('src/client/app/global.css', 'utf8');
    document.head.append(style);
    try {
      renderWithProviders(<p>page</p>);
      act(() => void notifications.show({ message: 'Saved the webhook' }));
      const toast = await screen.findByText('Saved the webhook');
      const container = toast.closest('[data-position]') as HTMLElement;
      expect(container).toHaveAttribute('data-position', 'top-right');
      expect(getComputedStyle(container).top).toMatch(/^calc\(60px \+/);
    } finally {
      // Test files share a worker's document: the app's stylesheet must not hide or move what the next file looks for.
      style.remove();
    }
  });
});
