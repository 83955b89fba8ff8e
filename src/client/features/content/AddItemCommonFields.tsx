/** What every new item has, whatever its source: title, type, tags, summary, folder and thumbnail. */
import { Autocomplete, FileInput, Group, Select, SimpleGrid } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { TagField } from '../../components/TagField.tsx';
import { COMMON_ITEM_TYPES } from './schemas.ts';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemCommonFields({
  form,
  err,
  titleProposal,
  folders,
}: AddItemSourceProps & { titleProposal: string; folders: readonly { id: string; title: string }[] }) {
  const title = useWatch({ control: form.control, name: 'title' });
  return (
    <>
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
          <TagField label="Tags" description="Press Enter or type a comma after each tag." value={field.value} onChange={field.onChange} error={err('tags')} />
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
              data={[{ value: '', label: 'Root folder' }, ...folders.map((f) => ({ value: f.id, label: f.title }))]}
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
    </>
  );
}
