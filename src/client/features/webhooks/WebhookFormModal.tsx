/**
 * Create or edit an organization webhook: name, payload URL, events, secret and deactivation
 * policy. The secret is typed (or generated) here and never shown again by the portal: after a
 * create, it is shown once with a copy button and a note on how receivers check signatures.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Code, CopyButton, Group, Modal, NumberInput, PasswordInput, Radio, SimpleGrid, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { WebhookRecord } from '../../api/index.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { CountedTextInput } from '../../components/CountedField.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { EventPicker } from './EventPicker.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { useCreateWebhook, useUpdateWebhook } from './mutations.ts';
import {
  EMPTY_WEBHOOK,
  formToInput,
  generateSecret,
  WEBHOOK_FORM_FIELDS,
  webhookFormSchema,
  webhookToForm,
  type WebhookFormInput,
  type WebhookFormValues,
} from './schemas.ts';

export interface WebhookFormModalProps {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  /** The webhook to edit; absent to create one. */
  webhook?: WebhookRecord;
  onCreated?: (id: string) => void;
}

export function WebhookFormModal({ opened, onClose, orgId, webhook, onCreated }: WebhookFormModalProps) {
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const dialog = useFormDialog(opened, onClose);
  const close = () => {
    const id = created?.id;
    setCreated(null);
    dialog.close();
    if (id) onCreated?.(id);
  };
  const title = created ? 'Webhook created' : webhook ? `Edit ${webhook.name}` : 'Create webhook';
  return (
    <Modal opened={opened} onClose={created ? close : dialog.cancel} title={title} size="xl" centered>
      {!opened ? null : created ? (
        <SecretOnce secret={created.secret} onDone={close} />
      ) : (
        <WebhookForm
          orgId={orgId}
          webhook={webhook}
          onClose={dialog.close}
          onCancel={dialog.cancel}
          onDirtyChange={dialog.onDirtyChange}
          onCreated={(id, secret) => (secret ? (dialog.onDirtyChange(false), setCreated({ id, secret })) : (dialog.close(), onCreated?.(id)))}
        />
      )}
    </Modal>
  );
}

function WebhookForm({
  orgId,
  webhook,
  onClose,
  onCancel,
  onDirtyChange,
  onCreated,
}: {
  orgId: string;
  webhook?: WebhookRecord;
  onClose: () => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
  onCreated: (id: string, secret: string) => void;
}) {
  const create = useCreateWebhook(orgId);
  const update = useUpdateWebhook(orgId, webhook?.id ?? '');
  const saving = webhook ? update : create;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<WebhookFormInput, unknown, WebhookFormValues>({
    resolver: zodResolver(webhookFormSchema),
    defaultValues: webhook ? webhookToForm(webhook) : EMPTY_WEBHOOK,
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useReportDirty(isDirty, onDirtyChange);
  const err = (field: keyof WebhookFormInput) => {
    const message = (errors[field] as { message?: string } | undefined)?.message;
    return message ? sentence(message) : undefined;
  };
  const secretMode = form.watch('secretMode');

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    const onError = (error: unknown) => setFormError(applyServerErrors(error, WEBHOOK_FORM_FIELDS, form.setError, { config: 'numberOfFailures' }));
    const input = formToInput(values, webhook);
    if (!webhook) {
      create.mutate(input, { onSuccess: (r) => onCreated(r.id, r.secret), onError });
      return;
    }
    update.mutate(input, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Webhook saved', message: `“${values.name}” was saved.` });
        onClose();
      },
      onError,
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={webhook ? 'Edit webhook' : 'Create webhook'}>
      <DialogLayout>
        <DialogScroll gap="md">
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title={webhook ? 'The webhook was not saved' : 'The webhook was not created'} role="alert">
              {formError}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <CountedTextInput label="Name" required error={err('name')} data-autofocus {...form.register('name')} max={LIMITS.webhookNameChars} />
            <TextInput
              label="Payload URL"
              description="Deliveries are POSTed here as JSON."
              required
              placeholder="https://receiver.example.com/hooks/portal"
              maxLength={LIMITS.urlChars}
              error={err('url')}
              {...form.register('url')}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="events"
            render={({ field }) => <EventPicker value={field.value} onChange={field.onChange} error={err('events')} />}
          />
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
          <div>
            <Text size="sm" fw={500}>
              Deactivation policy
            </Text>
            <Text size="xs" c="dimmed" mb={6}>
              The portal turns the webhook off once this many deliveries have failed (after every retry) within this many days. Activating it again starts a new
              count.
            </Text>
            <SimpleGrid cols={2}>
              <Controller
                control={form.control}
                name="numberOfFailures"
                render={({ field }) => (
                  <NumberInput
                    label="Failed deliveries"
                    min={1}
                    max={1000}
                    allowDecimal={false}
                    clampBehavior="none"
                    value={field.value}
                    onChange={(v) => field.onChange(typeof v === 'number' ? v : NaN)}
                    onBlur={field.onBlur}
                    error={err('numberOfFailures')}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="daysInPast"
                render={({ field }) => (
                  <NumberInput
                    label="Within days"
                    min={1}
                    max={365}
                    allowDecimal={false}
                    clampBehavior="none"
                    value={field.value}
                    onChange={(v) => field.onChange(typeof v === 'number' ? v : NaN)}
                    onBlur={field.onBlur}
                    error={err('daysInPast')}
                  />
                )}
              />
            </SimpleGrid>
          </div>
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {webhook ? 'Save webhook' : 'Create webhook'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}

/** The secret, once, with how a receiver checks a delivery against it. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <Alert color="yellow" variant="light" title="Copy the secret now">
          The portal does not show it again. Give it to the receiver; to change it later, set a new one.
        </Alert>
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label="Webhook secret">
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">How the receiver checks a delivery:</Text>
        <Text size="sm" component="div">
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            <li>
              <Code>x-esriHook-Signature</Code> is <Code>sha256=</Code> followed by the base64 HMAC-SHA256 of the raw body with the secret.
            </li>
            <li>
              <Code>webhook-signature</Code> is <Code>v1,</Code> and the base64 HMAC-SHA256 of <Code>{'<webhook-id>.<webhook-timestamp>.<body>'}</Code>; reject
              timestamps more than 5 minutes off, and drop a <Code>webhook-id</Code> already seen.
            </li>
            <li>Compare in constant time, over the exact bytes received.</li>
          </ul>
        </Text>
      </DialogScroll>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </DialogLayout>
  );
}
