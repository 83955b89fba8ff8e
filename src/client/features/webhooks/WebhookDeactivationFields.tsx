/** The deactivation policy: how many failed deliveries within how many days turn the webhook off. */
import { NumberInput, SimpleGrid, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { WebhookFieldError, WebhookFormApi } from './useWebhookForm.ts';

export function WebhookDeactivationFields({ form, err }: { form: WebhookFormApi; err: WebhookFieldError }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        Deactivation policy
      </Text>
      <Text size="xs" c="dimmed" mb={6}>
        The portal turns the webhook off once this many deliveries have failed (after every retry) within this many days. Activating it again starts a new
        count.
      </Text>
      <SimpleGrid cols={2}>
        <PolicyNumber form={form} err={err} name="numberOfFailures" label="Failed deliveries" max={1000} />
        <PolicyNumber form={form} err={err} name="daysInPast" label="Within days" max={365} />
      </SimpleGrid>
    </div>
  );
}

/** A whole number from 1 to `max`; an emptied field is NaN so the schema names it instead of keeping the old value. */
function PolicyNumber({
  form,
  err,
  name,
  label,
  max,
}: {
  form: WebhookFormApi;
  err: WebhookFieldError;
  name: 'numberOfFailures' | 'daysInPast';
  label: string;
  max: number;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          min={1}
          max={max}
          allowDecimal={false}
          clampBehavior="none"
          value={field.value}
          onChange={(v) => field.onChange(typeof v === 'number' ? v : NaN)}
          onBlur={field.onBlur}
          error={err(name)}
        />
      )}
    />
  );
}
