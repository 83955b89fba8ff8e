/** A small dimmed label above its value: the fields of a detail panel. */
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function LabeledValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
