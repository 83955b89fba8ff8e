/** When a task may run: its start and end (local time) and the most runs it makes. */
import { NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { sentence } from '../../lib/forms.ts';
import type { TaskFormApi } from './useTaskForm.ts';

export function TaskRunWindowFields({ form }: { form: TaskFormApi }) {
  const { errors } = form.formState;
  const msg = (e: { message?: string } | undefined) => (e?.message ? sentence(e.message) : undefined);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        type="datetime-local"
        label="Start (your time)"
        description="Optional: no run before this."
        {...form.register('startDate')}
        error={msg(errors.startDate)}
      />
      <TextInput
        type="datetime-local"
        label="End (your time)"
        description="Optional: no run after this."
        {...form.register('endDate')}
        error={msg(errors.endDate)}
      />
      <Controller
        control={form.control}
        name="maxOccurrences"
        render={({ field }) => (
          <NumberInput
            label="Maximum runs"
            description="Blank: no limit."
            min={1}
            allowDecimal={false}
            value={field.value}
            onChange={(v) => field.onChange(v === '' ? '' : Number(v))}
            ref={field.ref}
            error={msg(errors.maxOccurrences)}
          />
        )}
      />
    </SimpleGrid>
  );
}
