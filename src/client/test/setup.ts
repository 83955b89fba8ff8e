/** Client test setup: jest-dom matchers, the browser APIs jsdom lacks that Mantine uses, a clean tab per test. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure, getConfig, prettyDOM } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import React, { act } from 'react';
import { afterEach } from 'vitest';
import { loadSession } from '../lib/session.ts';
import { speedUpLabelLookups } from './jsdomLabels.ts';

// Pages load lazily and talk to a real service: give findBy*/waitFor more than the default second.
// 15 s: `npm test` runs the end-to-end specs beside these, and a first page's lazy chunks and
// answers then took over 8 s on 2 cores. A passing wait ends as soon as its element is there.
configure({ asyncUtilTimeout: 15_000, getElementError });

/**
 * Testing Library's default prints the whole page into every failed query's error. findBy* and
 * waitFor retry a query every 50 ms and throw those errors away; printing a console page each time
 * was a fifth of a form test's time. Inside those retries (the library marks them) the error says
 * only what was not found; the error a test fails with still carries the page, printed when the wait
 * gives up (waitFor asks again then) or when a plain getBy* fails.
 */
function getElementError(message: string | null, container: Element): Error {
  const retrying = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics;
  const page = retrying ? '' : `Ignored nodes: comments, ${getConfig().defaultIgnore}\n${prettyDOM(container)}`;
  const error = new Error([message, page].filter(Boolean).join('\n\n'));
  error.name = 'TestingLibraryElementError';
  return error;
}

/**
 * React's development build (which tests need for act) captures a stack trace and a console task for
 * every JSX element it creates, to print owner stacks in its warnings: a tenth of a form test's CPU.
 * Reporting the count it stops at (10,000 per render) as already reached makes every element take
 * the shared "unknown owner" stack instead; warnings still appear, with shorter stacks.
 */
const reactInternals = (React as unknown as Record<string, Record<string, unknown>>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', { configurable: true, get: () => Infinity, set: () => {} });

speedUpLabelLookups(document);

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

// jsdom has no object URLs; the console shows fetched thumbnails and saves downloads through them.
let objectUrls = 0;
if (typeof URL.createObjectURL !== 'function') {
  URL.createObjectURL = () => `blob:jsdom/${++objectUrls}`;
  URL.revokeObjectURL = () => {};
}

// A browser sends where a request comes from; Node's fetch (which jsdom tests use) sends nothing.
// Tokens the console gets are bound to its origin (generateToken client=referer) and are refused
// without it, so requests carry what the console's page would send under its Referrer-Policy
// (same-origin): the page's URL to its own origin, the Origin header to any other.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (url.origin === location.origin) {
    if (!headers.has('referer')) headers.set('referer', location.href);
  } else if (!headers.has('origin')) headers.set('origin', location.origin);
  return nodeFetch(input, { ...init, headers });
};

afterEach(() => {
  cleanup();
  // Mantine keeps its notifications in a module-level store, which files of a worker share
  // (isolate: false): a toast of one test must not show up as an extra alert in the next.
  act(() => notifications.clean());
  sessionStorage.clear();
  localStorage.clear();
  // The session store keeps its state in memory too: start the next test signed out.
  loadSession();
});
