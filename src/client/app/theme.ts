import { createTheme } from '@mantine/core';

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
    // The focus placeholder (a bare tabindex div) is not a menu item: role="menu" may only hold items.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});
