/**
 * The subscribed events as removable pills. A removed pill takes its focused button with it: focus
 * goes to the pill now in its place (or the last one), else to the list's heading, instead of the
 * dialog's body.
 */
import { Pill, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

export function SubscribedEvents({ value, onRemove, error }: { value: string[]; onRemove: (uri: string) => void; error?: string }) {
  const pillsRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLParagraphElement>(null);
  const refocus = useRef<number | null>(null);
  useEffect(() => {
    if (refocus.current === null) return;
    const buttons = pillsRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    (buttons[Math.min(refocus.current, buttons.length - 1)] ?? headingRef.current)?.focus();
    refocus.current = null;
  }, [value]);

  return (
    <div>
      <Text size="sm" fw={500} mb={4} ref={headingRef} tabIndex={-1}>
        Subscribed events
      </Text>
      {value.length ? (
        <Pill.Group role="group" aria-label="Subscribed events" ref={pillsRef}>
          {value.map((uri, index) => (
            // Mantine leaves a pill's remove button out of the tab order (tabindex -1, aria-hidden): here it is the
            // only way to drop one item's, group's or member's events, so it is a real button, 24 px or more (size md).
            // aria-hidden is removed, not set to false: the dialog's focus trap skips any element that has it.
            <Pill
              key={uri}
              size="md"
              withRemoveButton
              onRemove={() => {
                onRemove(uri);
                refocus.current = index;
              }}
              removeButtonProps={{ 'aria-label': `Remove ${uri}`, tabIndex: 0, 'aria-hidden': undefined }}
              ff="monospace"
            >
              {uri}
            </Pill>
          ))}
        </Pill.Group>
      ) : (
        <Text size="sm" c="dimmed">
          None yet.
        </Text>
      )}
      {error ? (
        <Text size="sm" c="red" mt={4} role="alert">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
