/**
 * The state of the Add item form (AddItemModal.tsx): the form and its validation, the type guessed
 * from a URL and the title proposed by the service, and the submit — a multipart upload for large
 * files (it runs on in the job tray), else one addItem with upload progress, then a toast.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { AddItemInput } from '../../api/index.ts';
import { foldersQuery } from '../../api/queries/items.ts';
import { useReportDirty } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { finishUploadedItem } from './afterUpload.ts';
import { useAddItem } from './mutations.ts';
import { addItemSchema, EMPTY_ADD_ITEM, typeForFileName, type AddItemFormValues, type AddMode } from './schemas.ts';
import { useProposedTitle } from './serviceTitle.ts';
import { addTransfer } from './transfers.ts';
import { typeFromUrl } from './typeFromUrl.ts';
import { MULTIPART_THRESHOLD_BYTES, MultipartUpload } from './upload.ts';

const FORM_FIELDS = [
  'title',
  'type',
  'tags',
  'snippet',
  'file',
  'url',
  'text',
  'dataUrl',
  'thumbnail',
  'relationshipType',
  'relatedItemId',
  'hitsPerInterval',
  'intervalSeconds',
  'referrers',
  'serviceUsername',
  'servicePassword',
] as const;
const PARAM_TO_FIELD: Record<string, (typeof FORM_FIELDS)[number]> = {
  originItemId: 'relatedItemId',
  destinationItemId: 'relatedItemId',
  relationshipTypes: 'relationshipType',
  thumbnailUrl: 'thumbnail',
  service: 'hitsPerInterval',
  tags: 'tags',
};

/** A field's error as a sentence, or undefined. */
export type FieldError = (field: keyof AddItemFormValues) => string | undefined;

export interface AddItemSourceProps {
  form: UseFormReturn<AddItemFormValues>;
  err: FieldError;
}

export function useAddItemForm({ onClose, onDirtyChange }: { onClose: () => void; onDirtyChange: (dirty: boolean) => void }) {
  const user = useCurrentUser();
  const add = useAddItem(user.username);
  const folders = useQuery(foldersQuery(user.username));
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ loaded: number; total: number } | null>(null);
  const form = useForm<AddItemFormValues>({ resolver: zodResolver(addItemSchema), defaultValues: EMPTY_ADD_ITEM, mode: 'onTouched' });
  useReportDirty(form.formState.isDirty, onDirtyChange);
  const [mode, url] = useWatch({ control: form.control, name: ['mode', 'url'] });
  const navigate = useNavigate();
  // The type last filled in from the URL: while the Type field still holds it, the member has not
  // chosen one, so a changed URL may replace it; a type they typed themselves is left alone.
  const [typeGuess, setTypeGuess] = useState('');
  const onUrlChange = (value: string) => {
    const guess = typeFromUrl(value) ?? '';
    const current = form.getValues('type');
    if (guess === typeGuess || (current && current !== typeGuess)) return;
    form.setValue('type', guess, { shouldValidate: form.formState.isSubmitted });
    setTypeGuess(guess);
  };
  const applyGuessedType = (guess: string) => {
    form.setValue('type', guess, { shouldValidate: true });
    setTypeGuess(guess);
  };
  // An empty Title takes the name the service gives itself (or its path's); a title the member typed is kept.
  const [titleProposal, setTitleProposal] = useState('');
  useProposedTitle(url, mode === 'url', (proposed) => {
    const current = form.getValues('title');
    if (current && current !== titleProposal) return;
    form.setValue('title', proposed, { shouldValidate: form.formState.isSubmitted });
    setTitleProposal(proposed);
  });
  const { errors } = form.formState;
  const err: FieldError = (field) => {
    const message = (errors[field] as { message?: string } | undefined)?.message;
    return message ? sentence(message) : undefined;
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    const folderId = v.folderId || undefined;
    const relation =
      v.relate === 'none'
        ? {}
        : v.relate === 'origin'
          ? { relationshipType: v.relationshipType, destinationItemId: v.relatedItemId }
          : { relationshipType: v.relationshipType, originItemId: v.relatedItemId };
    const fields = { title: v.title, type: v.type, tags: v.tags, snippet: v.snippet || undefined };

    if (v.mode === 'file' && v.file && v.file.size >= MULTIPART_THRESHOLD_BYTES) {
      // Large files: a multipart upload that keeps going in the job tray after this dialog closes.
      const upload = new MultipartUpload({ username: user.username, folderId, file: v.file, fields });
      // In the submit handler, not in render: a fresh key per upload.
      // eslint-disable-next-line react-hooks/purity
      const key = `upload-${Date.now()}`;
      addTransfer({ kind: 'upload', key, title: v.title, username: user.username, upload });
      upload
        .start()
        .then((itemId) => finishUploadedItem(user.username, itemId, { thumbnail: v.thumbnail ?? undefined, relation }))
        .catch(() => undefined /* the tray shows the failure and offers a retry */);
      notifications.show({
        title: 'Upload started',
        message: `“${v.title}” is uploading in parts — follow it under “Uploads and downloads” at the top right.`,
      });
      onClose();
      return;
    }

    const input: AddItemInput = { ...fields, ...relation, thumbnail: v.thumbnail ?? undefined };
    if (v.mode === 'file') input.file = v.file ?? undefined;
    if (v.mode === 'text') input.text = v.text;
    if (v.mode === 'dataUrl') input.dataUrl = v.dataUrl;
    if (v.mode === 'url') {
      input.url = v.url;
      if (v.useProxy) {
        input.service = { hitsPerInterval: v.hitsPerInterval, intervalSeconds: v.intervalSeconds, referrers: v.referrers };
        if (v.serviceUsername) Object.assign(input, { serviceUsername: v.serviceUsername, servicePassword: v.servicePassword });
      }
    }
    try {
      const result = await add.mutateAsync({
        folderId,
        input,
        onUploadProgress: v.mode === 'file' ? (loaded, total) => setSent({ loaded, total }) : undefined,
      });
      if (result.status === 'processing') {
        addTransfer({ kind: 'dataUrl', key: `job-${result.id}`, title: v.title, username: user.username, itemId: result.id, source: v.dataUrl });
        notifications.show({
          title: 'Download started',
          message: `The portal is downloading “${v.title}” — follow it under “Uploads and downloads” at the top right.`,
        });
      } else {
        // The new item is one click away; the toast stays a while so the button can be reached.
        const toast = `item-added-${result.id}`;
        notifications.show({
          id: toast,
          color: 'green',
          title: 'Item added',
          autoClose: 10_000,
          message: (
            <Stack gap={6} align="flex-start">
              <Text size="sm">{result.proxyUrl ? `“${v.title}” was added. Its proxy URL: ${result.proxyUrl}` : `“${v.title}” was added.`}</Text>
              <Button
                size="xs"
                variant="light"
                onClick={() => {
                  notifications.hide(toast);
                  void navigate(`/content/items/${result.id}`);
                }}
              >
                Open item
              </Button>
            </Stack>
          ),
        });
      }
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, FORM_FIELDS, form.setError, PARAM_TO_FIELD));
    } finally {
      setSent(null);
    }
  });

  const setMode = (m: string | null) => m && form.setValue('mode', m as AddMode, { shouldValidate: false });
  const onFile = (f: File | null) => {
    form.setValue('file', f, { shouldValidate: true, shouldTouch: true });
    if (f && !form.getValues('title')) form.setValue('title', f.name.replace(/\.[^.]+$/, ''), { shouldValidate: true });
    if (f && !form.getValues('type')) form.setValue('type', typeForFileName(f.name), { shouldValidate: true });
  };

  return { form, err, mode, setMode, onSubmit, formError, sent, folders: folders.data ?? [], onFile, onUrlChange, applyGuessedType, titleProposal };
}
