/**
 * Create or edit an organization webhook: name, payload URL, events, secret and deactivation
 * policy. The secret is typed (or generated) here and never shown again by the portal: after a
 * create, it is shown once with a copy button and a note on how receivers check signatures.
 */
import { Alert, Button, Modal, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import type { WebhookRecord } from '../../api/index.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { CountedTextInput } from '../../components/CountedField.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useFormDialog } from '../../components/useDirtyGuard.tsx';
import { EventPicker } from './EventPicker.tsx';
import { useWebhookForm } from './useWebhookForm.ts';
import { WebhookDeactivationFields } from './WebhookDeactivationFields.tsx';
import { WebhookSecretFields } from './WebhookSecretFields.tsx';
import { WebhookSecretOnce } from './WebhookSecretOnce.tsx';

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
        <WebhookSecretOnce secret={created.secret} onDone={close} />
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
  const { form, err, secretMode, saving, formError, onSubmit } = useWebhookForm({ orgId, webhook, onClose, onDirtyChange, onCreated });

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
          <WebhookSecretFields form={form} webhook={webhook} secretMode={secretMode} err={err} />
          <WebhookDeactivationFields form={form} err={err} />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {webhook ? 'Save webhook' : 'Create webhook'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
