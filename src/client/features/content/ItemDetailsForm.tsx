/** Edit an item's details; only the fields that changed are sent. Server problems land beside their field. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { useDirtyGuard } from '../../components/useDirtyGuard.tsx';
import type { Item } from '../../api/index.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import type { Permission } from '../../lib/privileges.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { TagField } from '../../components/TagField.tsx';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import { useUpdateItem } from './mutations.ts';
import { EDIT_ITEM_FIELDS, editItemSchema, type EditItemValues } from './schemas.ts';

const toForm = (item: Item): EditItemValues => ({
  title: item.title,
  snippet: item.snippet ?? '',
  description: item.description ?? '',
  tags: item.tags ?? [],
  url: item.url ?? '',
  accessInformation: item.accessInformation ?? '',
  licenseInfo: item.licenseInfo ?? '',
});

export function ItemDetailsForm({ item, permission }: { item: Item; permission: Permission }) {
  const update = useUpdateItem(item.owner, item.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EditItemValues>({ resolver: zodResolver(editItemSchema), values: toForm(item), mode: 'onTouched' });
  const { errors, dirtyFields, isDirty } = form.formState;
  const err = (f: keyof EditItemValues) => (errors[f]?.message ? sentence(String(errors[f]?.message)) : undefined);
  const readOnly = !permission.allowed;
  // Leaving the item (or the tab) with unsaved details asks first.
  useDirtyGuard(isDirty);

  // A service item's new URL: maps and apps that wrote the old address keep calling it, so the save asks first.
  const [urlConfirm, setUrlConfirm] = useState<EditItemValues | null>(null);
  const send = (values: EditItemValues) => {
    setFormError(null);
    const changed = Object.fromEntries(Object.entries(values).filter(([k]) => dirtyFields[k as keyof EditItemValues]));
    update.mutate(changed, {
      onSuccess: () => notifications.show({ color: 'green', title: 'Item saved', message: `“${values.title}” was saved.` }),
      onError: (e) => setFormError(applyServerErrors(e, EDIT_ITEM_FIELDS, form.setError)),
    });
  };
  const onSubmit = form.handleSubmit((values) => {
    if (dirtyFields.url && isServiceItem(item) && values.url.trim() && values.url.trim() !== item.url) setUrlConfirm(values);
    else send(values);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Item details">
      <Stack gap="sm">
        {formError ? (
          <Alert color="red" variant="light" role="alert" title="The item was not saved">
            {formError}
          </Alert>
        ) : null}
        <CountedTextInput label="Title" required readOnly={readOnly} error={err('title')} {...form.register('title')} max={LIMITS.itemTitleChars} />
        <CountedTextarea
          label="Summary"
          autosize
          minRows={1}
          maxRows={3}
          readOnly={readOnly}
          error={err('snippet')}
          {...form.register('snippet')}
          max={LIMITS.snippetChars}
        />
        <CountedTextarea
          label="Description"
          autosize
          minRows={3}
          maxRows={10}
          readOnly={readOnly}
          error={err('description')}
          {...form.register('description')}
          max={LIMITS.descriptionBytes - 1}
          unit="bytes"
        />
        <Controller
          control={form.control}
          name="tags"
          render={({ field }) => <TagField label="Tags" value={field.value} onChange={field.onChange} readOnly={readOnly} error={err('tags')} />}
        />
        <TextInput label="URL" readOnly={readOnly} error={err('url')} {...form.register('url')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Textarea
            label="Credits (attribution)"
            autosize
            minRows={1}
            readOnly={readOnly}
            error={err('accessInformation')}
            {...form.register('accessInformation')}
          />
          <Textarea label="Terms of use" autosize minRows={1} readOnly={readOnly} error={err('licenseInfo')} {...form.register('licenseInfo')} />
        </SimpleGrid>
        <Group>
          <GuardedButton permission={permission} type="submit" disabled={!isDirty} loading={update.isPending}>
            Save details
          </GuardedButton>
          {isDirty ? (
            <Button variant="subtle" onClick={() => form.reset(toForm(item))}>
              Discard changes
            </Button>
          ) : null}
        </Group>
      </Stack>
      <Modal opened={!!urlConfirm} onClose={() => setUrlConfirm(null)} title="Change the service URL?" size="lg" centered>
        <DialogLayout>
          <DialogScroll>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              From {item.url} to {urlConfirm?.url}.
            </Text>
            {urlConfirm ? <ImpactCheckSlot items={[item]} change={{ kind: 'url', url: urlConfirm.url.trim() }} /> : null}
          </DialogScroll>
          <ConfirmActions
            color="blue"
            confirmLabel="Save details"
            onCancel={() => setUrlConfirm(null)}
            onConfirm={() => {
              if (urlConfirm) send(urlConfirm);
              setUrlConfirm(null);
            }}
          />
        </DialogLayout>
      </Modal>
    </form>
  );
}

/** An item whose URL is a service (Feature Service, Map Service…, or an ArcGIS REST services address). */
function isServiceItem(item: Item): boolean {
  return !!item.url && (/Service$/.test(item.type) || /\/rest\/services\//i.test(item.url));
}
