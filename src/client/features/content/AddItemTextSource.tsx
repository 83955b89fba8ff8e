/** Add item from text or JSON (a Data Store item offers templates of its documented shapes). */
import { Textarea } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { DataStoreTemplatePicker } from './DataStoreTemplatePicker.tsx';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemTextSource({ form, err }: AddItemSourceProps) {
  const type = useWatch({ control: form.control, name: 'type' });
  return (
    <>
      {/^data store$/i.test(type.trim()) ? (
        <DataStoreTemplatePicker text={form.getValues('text')} onPick={(json) => form.setValue('text', json, { shouldDirty: true, shouldValidate: true })} />
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
    </>
  );
}
