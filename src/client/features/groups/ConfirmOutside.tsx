/** The "Add users" step before sending names that are not in this organization. */
import { Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { announce } from '../../lib/announce.ts';
import { plural } from './addUsersWords.ts';

const WRAP = { label: { whiteSpace: 'normal' as const } };

/** The step before sending names that are not in this organization: send them, leave them out, or go back. */
export function ConfirmOutside({
  outside,
  total,
  access,
  onBack,
  onLeaveOut,
  onConfirm,
}: {
  outside: string[];
  total: number;
  access: 'none' | 'org' | 'collaboration';
  onBack: () => void;
  onLeaveOut: () => void;
  onConfirm: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    announce(`Confirm: ${plural(outside.length, 'name is', 'names are')} not in your organization.`);
  }, [outside.length]);
  const rest = total - outside.length;
  return (
    <Stack gap="md" role="group" aria-labelledby="confirm-outside-heading">
      <Text component="h2" fw={600} size="lg" id="confirm-outside-heading" ref={heading} tabIndex={-1}>
        Add members of other organizations?
      </Text>
      <Text size="sm">
        {plural(outside.length, 'name is', 'names are')} not in your organization. Members of other organizations will see everything shared with this group
        {access === 'collaboration' ? '; the group takes only those of partnered organizations' : ''}. A name with no account is reported as not added.
      </Text>
      <ScrollArea.Autosize mah={120} type="auto">
        <Text size="sm" ff="monospace" aria-label="Not in your organization">
          {outside.join(', ')}
        </Text>
      </ScrollArea.Autosize>
      <Group justify="space-between" wrap="wrap">
        <Button variant="subtle" onClick={onBack}>
          Back
        </Button>
        <Group gap="sm" wrap="wrap">
          {rest ? (
            <Button variant="default" onClick={onLeaveOut} h="auto" py={8} styles={WRAP}>
              Leave them out, add {plural(rest, 'user')}
            </Button>
          ) : null}
          {/* Long labels wrap instead of running out of a narrow dialog. */}
          <Button onClick={onConfirm} h="auto" py={8} styles={WRAP}>
            {rest ? `Add all ${total}, with ${outside.length} of other organizations` : `Add ${plural(outside.length, 'member')} of other organizations`}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
