/** Client test setup: jest-dom matchers, the browser APIs jsdom lacks that Mantine uses, a clean tab per test. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadSession } from '../lib/session.ts';

// Pages load lazily and talk to a real service: give findBy*/waitFor more than the default second.
configure({ asyncUtilTimeout: 8_000 });

const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);
window.HTMLElement.prototype.scrollIntoView = () => {};

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserver;

// Autosizing text areas listen for web fonts loading (document.fonts), which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() } });
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  // The session store keeps its state in memory too: start the next test signed out.
  loadSession();
});
