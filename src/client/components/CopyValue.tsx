/**
 * A value people paste elsewhere (an item ID, a proxy URL) shown as it is, with a button that
 * copies it. The button reads "Copied" for a moment, and "Copied" is announced: a changed button
 * label alone is not spoken by screen readers.
 */
import { Button, Code, CopyButton, Group, Text } from '@mantine/core';
import { useEffect } from 'react';
import { announce } from '../lib/announce.ts';
import { IconCheck, IconCopy } from './icons.tsx';

export interface CopyValueProps {
  /** What the value is ("Item ID"): its visible label and the accessible name of the code. */
  label: string;
  value: string;
  /** The button's label before copying ("Copy item ID"). */
  copyLabel: string;
  /** Label and value on one line (short values), or the label above (long ones that wrap). */
  inline?: boolean;
}

export function CopyValue({ label, value, copyLabel, inline = false }: CopyValueProps) {
  const code = (
    <Code aria-label={label} style={{ wordBreak: 'break-all', ...(inline ? {} : { flex: 1 }) }}>
      {value}
    </Code>
  );
  const button = (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => <CopyAction copied={copied} copy={copy} label={copyLabel} />}
    </CopyButton>
  );
  if (inline) {
    return (
      <Group gap="xs" wrap="wrap" align="center">
        <Text size="sm" c="dimmed" component="span">
          {label}:
        </Text>
        {code}
        {button}
      </Group>
    );
  }
  return (
    <>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        {code}
        {button}
      </Group>
    </>
  );
}

function CopyAction({ copied, copy, label }: { copied: boolean; copy: () => void; label: string }) {
  // Said once the clipboard took the value (CopyButton turns `copied` on only then).
  useEffect(() => {
    if (copied) announce('Copied');
  }, [copied]);
  return (
    <Button
      size="compact-sm"
      variant="light"
      color={copied ? 'teal' : undefined}
      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
      onClick={copy}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
