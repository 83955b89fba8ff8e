/**
 * Add item: one dialog, four ways in — a file (drag and drop; large files go through a multipart
 * upload that runs on in the job tray), a URL (optionally behind the portal's rate-limited service
 * proxy), text or JSON, and a data URL the portal downloads in the background. Options common to
 * all: title, type, tags, summary, folder, thumbnail and a relationship made with the item.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  NumberInput,
  Progress,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Autocomplete,
  PasswordInput,
  Fieldset,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../../shared/limits.ts';
import { RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';
import type { AddItemInput } from '../../api/index.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { DataStoreTemplatePicker } from './DataStoreTemplatePicker.tsx';
import { DialogFooter, DialogStickyTop } from '../../components/DialogFooter.tsx';
import { IconAlert, IconUpload } from '../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { TagField } from '../../components/TagField.tsx';
import { formatBytes, withArticle } from '../../lib/format.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useAddItem } from './mutations.ts';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { foldersQuery } from '../../api/queries/items.ts';
import { addItemSchema, COMMON_ITEM_TYPES, EMPTY_ADD_ITEM, typeForFileName, type AddItemFormValues, type AddMode } from './schemas.ts';
import { addTransfer } from './transfers.ts';
import { MULTIPART_THRESHOLD_BYTES, MultipartUpload } from './upload.ts';
import { finishUploadedItem } from './afterUpload.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { typeFromUrl } from './typeFromUrl.ts';
import { useProposedTitle } from './serviceTitle.ts';

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

export function AddItemModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title="Add item" size="xl" centered>
      {opened ? <AddItemForm onClose={close} onCancel={cancel} onDirtyChange={onDirtyChange} /> : null}
    </Modal>
  );
}

function AddItemForm({ onClose, onCancel, onDirtyChange }: { onClose: () => void; onCancel: () => void; onDirtyChange: (dirty: boolean) => void }) {
  const user = useCurrentUser();
  const add = useAddItem(user.username);
  const folders = useQuery(foldersQuery(user.username));
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ loaded: number; total: number } | null>(null);
  const form = useForm<AddItemFormValues>({ resolver: zodResolver(addItemSchema), defaultValues: EMPTY_ADD_ITEM, mode: 'onTouched' });
  const { isDirty } = form.formState;
  useReportDirty(isDirty, onDirtyChange);
  const [mode, relate, useProxy, file, url, type] = useWatch({ control: form.control, name: ['mode', 'relate', 'useProxy', 'file', 'url', 'type'] });
  const navigate = useNavigate();
  // The type last filled in from the URL: while the Type field still holds it, the member has not
  // chosen one, so a changed URL may replace it; a type they typed themselves is left alone.
  const [typeGuess, setTypeGuess] = useState('');
  const guessedType = typeFromUrl(url);
  const onUrlChange = (value: string) => {
    const guess = typeFromUrl(value) ?? '';
    const current = form.getValues('type');
    if (guess === typeGuess || (current && current !== typeGuess)) return;
    form.setValue('type', guess, { shouldValidate: form.formState.isSubmitted });
    setTypeGuess(guess);
  };
  // An empty Title takes the name the service gives itself (or its path's); a title the member typed is kept.
  const title = useWatch({ control: form.control, name: 'title' });
  const [titleProposal, setTitleProposal] = useState('');
  useProposedTitle(url, mode === 'url', (proposed) => {
    const current = form.getValues('title');
    if (current && current !== titleProposal) return;
    form.setValue('title', proposed, { shouldValidate: form.formState.isSubmitted });
    setTitleProposal(proposed);
  });
  const { errors } = form.formState;
  const err = (field: keyof AddItemFormValues) => {
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

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add item">
      <Stack gap="md">
        {formError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The item was not added" role="alert">
            {formError}
          </Alert>
        ) : null}
        <Tabs value={mode} onChange={setMode} keepMounted={false}>
          <DialogStickyTop>
            <Tabs.List>
              <Tabs.Tab value="file">File</Tabs.Tab>
              <Tabs.Tab value="url">URL</Tabs.Tab>
              <Tabs.Tab value="text">Text or JSON</Tabs.Tab>
              <Tabs.Tab value="dataUrl">Download from URL</Tabs.Tab>
            </Tabs.List>
          </DialogStickyTop>
          <Tabs.Panel value="file" pt="md">
            <Dropzone onDrop={(files) => onFile(files[0] ?? null)} multiple={false} aria-label="Drop a file here or choose one">
              <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
                <IconUpload size={32} />
                <Stack gap={2}>
                  <Text fw={600}>{file ? file.name : 'Drop a file here, or click to choose one'}</Text>
                  <Text size="sm" c="dimmed">
                    {file
                      ? `${formatBytes(file.size)}${file.size >= MULTIPART_THRESHOLD_BYTES ? ' — sent in parts, with progress in the tray' : ''}`
                      : `Files of ${formatBytes(MULTIPART_THRESHOLD_BYTES)} or more are sent in parts that can be retried.`}
                  </Text>
                </Stack>
              </Group>
            </Dropzone>
            {err('file') ? (
              <Text c="red" size="sm" mt={4} role="alert">
                {err('file')}
              </Text>
            ) : null}
          </Tabs.Panel>
          <Tabs.Panel value="url" pt="md">
            <Stack gap="sm">
              <TextInput
                label="URL"
                placeholder="https://services.example.com/arcgis/rest/services/Parks/FeatureServer"
                required
                error={err('url')}
                {...form.register('url', { onChange: (e: { target: { value: string } }) => onUrlChange(e.target.value) })}
              />
              {/* Read out as it changes: the type below may just have been filled in from it. */}
              <div aria-live="polite" data-testid="type-from-url">
                {guessedType ? (
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      {guessedType === type
                        ? `The URL looks like ${withArticle(guessedType)}: Type is set to it. Change Type if it is something else.`
                        : `The URL looks like ${withArticle(guessedType)}.`}
                    </Text>
                    {guessedType !== type ? (
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => {
                          form.setValue('type', guessedType, { shouldValidate: true });
                          setTypeGuess(guessedType);
                        }}
                      >
                        Use {guessedType}
                      </Button>
                    ) : null}
                  </Group>
                ) : null}
              </div>
              <Checkbox
                label="Put the service behind the portal's proxy"
                description="The item gets a proxy URL that forwards to the service with stored credentials, limited to so many requests per interval."
                {...form.register('useProxy')}
                error={err('useProxy')}
              />
              {useProxy ? (
                <Fieldset legend="Service proxy">
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <Controller
                      control={form.control}
                      name="hitsPerInterval"
                      render={({ field }) => (
                        <NumberInput
                          label="Requests per interval"
                          min={1}
                          max={1_000_000}
                          value={field.value}
                          onChange={(n) => field.onChange(Number(n) || 0)}
                          error={err('hitsPerInterval')}
                        />
                      )}
                    />
                    <Controller
                      control={form.control}
                      name="intervalSeconds"
                      render={({ field }) => (
                        <NumberInput
                          label="Interval (seconds)"
                          min={1}
                          max={86_400}
                          value={field.value}
                          onChange={(n) => field.onChange(Number(n) || 0)}
                          error={err('intervalSeconds')}
                        />
                      )}
                    />
                    <TextInput label="Service username" autoComplete="off" {...form.register('serviceUsername')} error={err('serviceUsername')} />
                    <PasswordInput label="Service password" autoComplete="new-password" {...form.register('servicePassword')} error={err('servicePassword')} />
                  </SimpleGrid>
                  <Controller
                    control={form.control}
                    name="referrers"
                    render={({ field }) => (
                      <TagField
                        mt="sm"
                        label="Allowed referrers"
                        description="Sites that may use the proxy, e.g. https://*.example.com. None: any."
                        value={field.value}
                        onChange={field.onChange}
                        alsoSplitOn={[' ']}
                        error={err('referrers')}
                      />
                    )}
                  />
                  <Text size="xs" c="dimmed" mt="xs">
                    The credentials are stored on the portal and never shown again.
                  </Text>
                </Fieldset>
              ) : null}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="text" pt="md">
            {/^data store$/i.test(type.trim()) ? (
              <DataStoreTemplatePicker
                text={form.getValues('text')}
                onPick={(json) => form.setValue('text', json, { shouldDirty: true, shouldValidate: true })}
              />
            ) : null}
            <Textarea
              label="Text or JSON"
              description="JSON is checked before it is sent (web maps, data stores…)."
              autosize
              minRows={6}
              maxRows={16}
              ff="monospace"
              error={err('text')}
              {...form.register('text')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="dataUrl" pt="md">
            <TextInput
              label="Download URL"
              description="The portal downloads the file in the background (in ranges when the server allows it). You can close this dialog; the tray follows the download."
              placeholder="https://data.example.com/parks.zip"
              required
              error={err('dataUrl')}
              {...form.register('dataUrl')}
            />
          </Tabs.Panel>
        </Tabs>

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <CountedTextInput
            label="Title"
            required
            description={titleProposal && title === titleProposal ? 'Named after the service: change it if you like.' : undefined}
            error={err('title')}
            {...form.register('title')}
            max={LIMITS.itemTitleChars}
          />
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <Autocomplete
                label="Type"
                required
                leftSection={field.value ? <ItemTypeIcon type={field.value} /> : null}
                renderOption={({ option }) => (
                  <Group gap={6} wrap="nowrap">
                    <ItemTypeIcon type={option.value} />
                    {option.value}
                  </Group>
                )}
                data={[...COMMON_ITEM_TYPES]}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={err('type')}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="tags"
          render={({ field }) => (
            <TagField
              label="Tags"
              description="Press Enter or type a comma after each tag."
              value={field.value}
              onChange={field.onChange}
              error={err('tags')}
            />
          )}
        />
        <CountedTextarea label="Summary" autosize minRows={1} maxRows={3} error={err('snippet')} {...form.register('snippet')} max={LIMITS.snippetChars} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="folderId"
            render={({ field }) => (
              <Select
                label="Folder"
                data={[{ value: '', label: 'Root folder' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.title }))]}
                value={field.value}
                onChange={(v) => field.onChange(v ?? '')}
                allowDeselect={false}
              />
            )}
          />
          <Controller
            control={form.control}
            name="thumbnail"
            render={({ field }) => (
              <FileInput
                label="Thumbnail"
                placeholder="PNG, JPEG, GIF or WebP"
                accept="image/png,image/jpeg,image/gif,image/webp"
                clearable
                value={field.value}
                onChange={field.onChange}
                error={err('thumbnail')}
              />
            )}
          />
        </SimpleGrid>

        <Fieldset legend="Relate it to another item">
          <Controller
            control={form.control}
            name="relate"
            render={({ field }) => (
              <Radio.Group value={field.value} onChange={field.onChange} aria-label="Relationship">
                <Group gap="lg">
                  <Radio value="none" label="No relationship" />
                  <Radio value="origin" label="The new item is the origin" />
                  <Radio value="destination" label="The new item is the destination" />
                </Group>
              </Radio.Group>
            )}
          />
          {relate !== 'none' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
              <ControlledSelect
                control={form.control}
                name="relationshipType"
                label="Relationship type"
                searchable
                data={RELATIONSHIP_TYPES.map((r) => ({ value: r.name, label: `${r.name} — ${r.description}` }))}
                error={err('relationshipType')}
              />
              <Controller
                control={form.control}
                name="relatedItemId"
                render={({ field }) => (
                  <ItemPicker
                    label={relate === 'destination' ? 'Origin item' : 'Destination item'}
                    value={field.value}
                    onChange={field.onChange}
                    error={err('relatedItemId')}
                  />
                )}
              />
            </SimpleGrid>
          ) : null}
          {relate === 'destination' ? (
            <Text size="xs" c="dimmed" mt="xs">
              The new item takes on the origin's sharing. If the relationship cannot be made, the item is not added.
            </Text>
          ) : null}
        </Fieldset>

        {sent ? <Progress value={(sent.loaded / Math.max(1, sent.total)) * 100} aria-label="Upload progress" /> : null}
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Add item
          </Button>
        </DialogFooter>
      </Stack>
    </form>
  );
}
