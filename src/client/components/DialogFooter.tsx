/**
 * Tall dialogs keep their heading and their buttons in view while the body scrolls (issue 25,
 * item 11). Mantine's modal header is already sticky (top: 0, over the body); `DialogFooter` is the
 * matching bottom bar for a dialog's actions, and `DialogStickyTop` keeps tabs (or any switch
 * between a dialog's views) just under the header.
 *
 * Both stick inside the modal's scrolling content, reach its edges (they undo the body's padding)
 * and have the body's background, so what scrolls under them is hidden rather than shown through.
 * The styles are inline, so they hold in every dialog without a stylesheet (and tests can read them).
 */
import { Box, Group, type GroupProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

const PADDING = 'var(--mb-padding, var(--mantine-spacing-md))';

const footerStyle: CSSProperties = {
  position: 'sticky',
  bottom: 0,
  zIndex: 3,
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-default-border)',
  marginInline: `calc(-1 * ${PADDING})`,
  marginBottom: `calc(-1 * ${PADDING})`,
  paddingInline: PADDING,
  paddingBlock: 'var(--mantine-spacing-sm)',
};

/** The action row at the bottom of a dialog: Cancel and the main action, always visible. */
export function DialogFooter({ children, style, justify = 'flex-end', ...props }: GroupProps & { children: ReactNode }) {
  return (
    <Group justify={justify} gap="sm" data-dialog-footer="" style={{ ...footerStyle, ...(style as CSSProperties) }} {...props}>
      {children}
    </Group>
  );
}

/** Mantine's modal header is at least 3.75rem high; a sticky top sits just under it. */
const stickyTopStyle: CSSProperties = {
  position: 'sticky',
  top: 'calc(3.75rem * var(--mantine-scale))',
  zIndex: 3,
  background: 'var(--mantine-color-body)',
  marginInline: `calc(-1 * ${PADDING})`,
  paddingInline: PADDING,
};

/** Tabs (or a view switch) of a dialog that stay under its title while the body scrolls. */
export function DialogStickyTop({ children }: { children: ReactNode }) {
  return (
    <Box data-dialog-sticky-top="" style={stickyTopStyle}>
      {children}
    </Box>
  );
}
