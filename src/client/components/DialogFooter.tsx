/**
 * Tall dialogs keep their heading and their buttons in view while the body scrolls (issue 25,
 * item 11; issue 39: a sticky footer inside the scrolling body hid the last fields behind it).
 *
 * A dialog is laid out once, by `DialogLayout`: a column whose middle, `DialogScroll`, is the only
 * part that scrolls; `DialogFooter` (and `DialogTop`, for tabs) are its siblings, outside the
 * scrolling region, so nothing can slide under them. The modal around it stops scrolling itself and
 * gives the layout its height: global.css (`[data-dialog-layout]`) turns the modal's content, body
 * and anything between body and layout (a `<form>`) into columns that shrink to the viewport.
 * The layout's own styles are inline, so tests can read them without the stylesheet.
 */
import { Box, Group, Stack, type GroupProps, type StackProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

const PADDING = 'var(--mb-padding, var(--mantine-spacing-md))';

const layoutStyle: CSSProperties = { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 };

/** The dialog's column: top (optional), the scrolling part, the footer. */
export function DialogLayout({ children }: { children: ReactNode }) {
  return (
    <div data-dialog-layout="" style={layoutStyle}>
      {children}
    </div>
  );
}

const scrollStyle: CSSProperties = {
  flex: '1 1 auto',
  minHeight: 0,
  overflowY: 'auto',
  // Room for focus rings at the edges, which the scrolling region would otherwise clip.
  paddingTop: 4,
  paddingInline: PADDING,
  paddingBottom: PADDING,
};

/** The part of a dialog that scrolls when the dialog is taller than the window (a Stack). */
export function DialogScroll({ children, ...props }: StackProps & { children: ReactNode }) {
  return (
    <div data-dialog-scroll="" style={scrollStyle}>
      <Stack {...props}>{children}</Stack>
    </div>
  );
}

const footerStyle: CSSProperties = {
  flex: '0 0 auto',
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-default-border)',
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

const topStyle: CSSProperties = { flex: '0 0 auto', paddingInline: PADDING };

/** Tabs (or a view switch) of a dialog that stay under its title while the body scrolls. */
export function DialogTop({ children }: { children: ReactNode }) {
  return (
    <Box data-dialog-top="" style={topStyle}>
      {children}
    </Box>
  );
}
