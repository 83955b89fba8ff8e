/** The organization's delivery settings: attempts, time limit and the wait between attempts, with their ranges. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { WEBHOOK_SETTINGS_LIMITS as L, type WebhookSettings } from '../../../shared/contract/webhooks.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useUpdateWebhookSettings } from './mutations.ts';
import { webhookAction } from './permissions.ts';
import { webhookSettingsQuery } from '../../api/queries/webhooks.ts';
import { SETTINGS_FIELDS, settingsFormSchema, type SettingsFormValues } from './schemas.ts';

const FIELDS: { name: keyof WebhookSettings; label: string; description: string; range: { min: number; max: number; default: number } }[] = [
  { name: 'notificationAttempts', label: 'Retries', description: 'Attempts after the first one fails', range: L.notificationAttempts },
  {
    name: 'notificationTimeOutInSeconds',
    label: 'Time limit (seconds)',
    description: 'For the receiver to answer one attempt',
    range: L.notificationTimeOutInSeconds,
  },
  {
    name: 'notificationElapsedTimeInSeconds',
    label: 'First wait (seconds)',
    description: 'Before the first retry; each later wait doubles',
    range: L.notificationElapsedTimeInSeconds,
  },
];

export function SettingsPanel({ orgId }: { orgId: string }) {
  const settings = useQuery(webhookSettingsQuery(orgId));
  if (settings.isPending) return <LoadingState />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  return <SettingsForm orgId={orgId} current={settings.data} />;
}

function SettingsForm({ orgId, current }: { orgId: string; current: WebhookSettings }) {
  const user = useCurrentUser();
  const save = useUpdateWebhookSettings(orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SettingsFormValues>({ resolver: zodResolver(settingsFormSchema), defaultValues: current, mode: 'onTouched' });
  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    save.mutate(values, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Delivery settings saved', message: 'They apply to every webhook of the organization.' });
        form.reset(values);
      },
      onError: (error) => setFormError(applyServerErrors(error, SETTINGS_FIELDS, form.setError)),
    });
  });
  return (
    <Paper withBorder p="md" maw={820}>
      <form onSubmit={onSubmit} noValidate aria-label="Delivery settings">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            These apply to every organization webhook. Only a 2xx answer counts as delivered; redirects are not followed; a 429 or 503 with Retry-After waits as
            asked (up to {L.notificationElapsedTimeInSeconds.max} s); a 410 Gone turns the webhook off.
          </Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The settings were not saved" role="alert">
              {formError}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {FIELDS.map((f) => (
              <Controller
                key={f.name}
                control={form.control}
                name={f.name}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={f.label}
                    description={`${f.description}. ${f.range.min}–${f.range.max}, default ${f.range.default}.`}
                    min={f.range.min}
                    max={f.range.max}
                    allowDecimal={false}
                    clampBehavior="none"
                    value={field.value}
                    onChange={(v) => field.onChange(typeof v === 'number' ? v : NaN)}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message ? sentence(fieldState.error.message) : undefined}
                  />
                )}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => form.reset(current)} disabled={!form.formState.isDirty}>
              Discard
            </Button>
            <GuardedButton
              type="submit"
              permission={webhookAction(user, 'updateWebhookSettings', 'change delivery settings')}
              loading={save.isPending}
              // Nothing to save until a value changes (Discard beside it says the same).
              disabled={!form.formState.isDirty}
            >
              Save settings
            </GuardedButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
