/** Loading, empty and error states, the same everywhere. */
import { Alert, Button, Center, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError, describeError } from '../api/index.ts';
import { IconAlert, IconInbox } from './icons.tsx';

export function LoadingState({ label = 'Loading…', minHeight = 160 }: { label?: string; minHeight?: number }) {
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden="true" />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Group>
    </Center>
  );
}

export function EmptyPanel({ title, description, icon, children }: { title: string; description?: ReactNode; icon?: ReactNode; children?: ReactNode }) {
  return (
    <EmptyState py="xl" title={title} description={description} icon={icon ?? <IconInbox size={28} />} withIndicatorBackground>
      {children ? <EmptyState.Actions>{children}</EmptyState.Actions> : null}
    </EmptyState>
  );
}

/** An error from the portal (or anything thrown), in words, with a retry when one makes sense. */
export function ErrorState({ error, title = 'Something went wrong', onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const forbidden = error instanceof ApiError && error.isForbidden;
  return (
    <Alert color="red" variant="light" title={forbidden ? 'Not allowed' : title} icon={<IconAlert />} role="alert">
      <Stack gap="xs">
        <Text size="sm">{describeError(error)}</Text>
        {error instanceof ApiError && error.code > 0 ? (
          <Text size="xs" c="dimmed">
            Error {error.code}
            {error.messageCode ? ` (${error.messageCode})` : ''}
          </Text>
        ) : null}
        {onRetry && !forbidden ? (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              Try again
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}
