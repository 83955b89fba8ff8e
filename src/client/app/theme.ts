import { createTheme } from '@mantine/core';

/** The colours an errored input keeps (inline on the input's root, over Mantine's `[data-error]` rule). */
export const ERRORED_INPUT_VARS = {
  '--input-placeholder-color': 'var(--mantine-color-placeholder)',
  '--input-color': 'var(--mantine-color-text)',
  '--input-section-color': 'var(--mantine-color-dimmed)',
} as const;

function inputErrorVars(_theme: unknown, props: { error?: unknown }) {
  return { wrapper: props.error ? { ...ERRORED_INPUT_VARS } : {} };
}

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  // Transitions (modals, drawers, menus, collapses) are skipped for members who ask for less motion.
  respectReducedMotion: true,
  // Plain objects, not Drawer.extend(…): `extend` would import each component into the first load
  // (the drawer's scroll lock and the menu's positioning, 12 KB gzip) just to type these props.
  components: {
    // Every dialog's close button (ours and the modals manager's) gets an accessible name.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // An errored field keeps its placeholder, text and icons in their usual colours: Mantine paints
    // them all in the error red, so an empty errored field looked filled in (issue 25, item 11).
    // The red border and the error message under the field say what is wrong.
    Input: { vars: inputErrorVars },
    // A badge keeps its whole word: Mantine clips it with an ellipsis, which let a table column
    // squeeze "Owner only" to "Owner o…" at 1440 px. Badges carry short fixed words (states,
    // sharing, roles); one holding free text (a tag) sets its own maximum width.
    Badge: { styles: { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } },
    // Toasts: the close button gets a name, and a message under a title keeps the text colour
    // (Mantine dims it, below the 4.5:1 contrast WCAG asks for on the toast's background).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } },
      styles: { description: { color: 'var(--mantine-color-text)' } },
    },
    // The focus placeholder (a bare tabindex div) is not a menu item: role="menu" may only hold items.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});
