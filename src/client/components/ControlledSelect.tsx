/**
 * A Mantine Select bound to one react-hook-form field: the field holds a string ('' for none), and
 * the select shows null for it. Every other Select prop passes through.
 */
import { Select, type SelectProps } from '@mantine/core';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export type ControlledSelectProps<F extends FieldValues> = Omit<SelectProps, 'value' | 'onChange' | 'onBlur'> & {
  // Any context and transformed-values type: forms with a zod resolver transform on submit.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<F, any, any>;
  name: FieldPath<F>;
};

export function ControlledSelect<F extends FieldValues>({ control, name, ...rest }: ControlledSelectProps<F>) {
  const { field } = useController({ control, name });
  // `field` is react-hook-form's field object; only field.ref is a (callback) ref.
  // eslint-disable-next-line react-hooks/refs
  return <Select {...rest} value={field.value || null} onChange={(v) => field.onChange(v ?? '')} onBlur={field.onBlur} ref={field.ref} />;
}
