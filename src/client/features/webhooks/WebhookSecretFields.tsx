/** The webhook's secret: keep, replace (typed or generated) or remove it, or set one or none on a new webhook. */
import { Button, Group, PasswordInput, Radio } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { WebhookRecord } from '../../api/index.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { generateSecret } from './schemas.ts';
import type { WebhookFieldError, WebhookFormApi } from './useWebhookForm.ts';

export function WebhookSecretFields({
  form,
  webhook,
  secretMode,
  err,
}: {
  form: WebhookFormApi;
  webhook?: WebhookRecord;
  secretMode: string;
  err: WebhookFieldError;
}) {
  return (
    <>
      <Controller
        control={form.control}
        name="secretMode"
        render={({ field }) => (
          <Radio.Group
            label="Secret"
            description="Signs each delivery so the receiver knows it came from this portal."
            value={field.value}
            onChange={field.onChange}
          >
            <Group gap="md" mt={6}>
              {webhook?.secret ? <Radio value="keep" label="Keep the current secret" /> : null}
              <Radio value="set" label={webhook?.secret ? 'Replace it' : 'Set a secret'} />
              <Radio value="none" label={webhook?.secret ? 'Remove it' : 'No secret'} />
            </Group>
          </Radio.Group>
        )}
      />
      {secretMode === 'set' ? (
        <Group align="flex-end" gap="xs">
          <PasswordInput
            label="New secret"
            description="Shown once after saving; the portal never shows it again."
            maxLength={LIMITS.webhookSecretChars}
            error={err('secret')}
            style={{ flex: 1 }}
            autoComplete="new-password"
            {...form.register('secret')}
          />
          <Button variant="default" onClick={() => form.setValue('secret', generateSecret(), { shouldValidate: true, shouldDirty: true })}>
            Generate
          </Button>
        </Group>
      ) : null}
    </>
  );
}
