/**
 * The state of the webhook form: the values and errors, the secret mode typed, and saving (a create
 * hands back the new secret to show once; the service's refusals go beside the fields they name).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { WebhookRecord } from '../../api/index.ts';
import { useReportDirty } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCreateWebhook, useUpdateWebhook } from './mutations.ts';
import { EMPTY_WEBHOOK, formToInput, WEBHOOK_FORM_FIELDS, webhookFormSchema, webhookToForm, type WebhookFormInput, type WebhookFormValues } from './schemas.ts';

export type WebhookFormApi = ReturnType<typeof useForm<WebhookFormInput, unknown, WebhookFormValues>>;
/** A field's error as a sentence, or undefined. */
export type WebhookFieldError = (field: keyof WebhookFormInput) => string | undefined;

export function useWebhookForm({
  orgId,
  webhook,
  onClose,
  onDirtyChange,
  onCreated,
}: {
  orgId: string;
  webhook?: WebhookRecord;
  onClose: () => void;
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

  return { form, err, secretMode, saving: saving.isPending, formError, onSubmit };
}
