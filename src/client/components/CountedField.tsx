/**
 * Fields with a limit show a live count under the input ("123 / 2,048"), in the error colour once
 * over it (issue 25, item 11). The count is not spoken on every keystroke: screen readers hear it
 * (politely) only when the text comes near the limit, goes over it, or comes back under it.
 *
 * The inputs take no native `maxLength`: a pasted or loaded text over the limit stays visible and
 * is said to be too long (the form's schema refuses it with the field named), instead of being cut
 * off without a word.
 */
import { Text, Textarea, TextInput, VisuallyHidden, type TextareaProps, type TextInputProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode, type Ref } from 'react';
import { announce } from '../lib/announce.ts';
import { formatCount } from '../lib/forms.ts';

export type CountUnit = 'characters' | 'bytes';

/** How long a value is, as the schemas measure it (string length; UTF-8 bytes for byte limits). */
export function measure(value: string, unit: CountUnit = 'characters'): number {
  return unit === 'bytes' ? new TextEncoder().encode(value).length : value.length;
}

/** Near the limit: the last tenth of it (at least 10 left). */
export function counterState(length: number, max: number): 'ok' | 'near' | 'over' {
  if (length > max) return 'over';
  return max - length <= Math.max(10, Math.ceil(max / 10)) ? 'near' : 'ok';
}

/**
 * The count for one field: what to show, and a polite announcement each time the field crosses
 * into "near", "over" or back under the limit (never on mount, never for each character).
 */
export function useFieldCounter(length: number, max: number, label: string, unit: CountUnit = 'characters') {
  const state = counterState(length, max);
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current === state) return;
    const was = previous.current;
    previous.current = state;
    if (state === 'over') announce(`${label}: ${formatCount(length - max)} ${unit} over the limit of ${formatCount(max)}`);
    else if (state === 'near') announce(`${label}: ${formatCount(max - length)} ${unit} left`);
    else if (was === 'over') announce(`${label}: within the limit again`);
    // Only a change of state is spoken; the length itself changes on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
  return { state, text: `${formatCount(length)} / ${formatCount(max)}`, over: state === 'over' };
}

function Counter({ id, length, max, label, unit }: { id: string; length: number; max: number; label: string; unit: CountUnit }) {
  const { text, over } = useFieldCounter(length, max, label, unit);
  return (
    <Text
      id={id}
      size="xs"
      ta="right"
      mt={4}
      c={over ? 'var(--mantine-color-error)' : 'dimmed'}
      fw={over ? 600 : undefined}
      data-counter={over ? 'over' : 'ok'}
    >
      {text}
      <VisuallyHidden component="span">{` ${unit}${over ? ', over the limit' : ''}`}</VisuallyHidden>
    </Text>
  );
}

interface CountedProps {
  /** The limit the schema and the service enforce (from shared/limits or the contract). */
  max: number;
  unit?: CountUnit;
}

/** Tracks the live length of a registered (uncontrolled) or controlled input. */
function useLiveLength<E extends HTMLInputElement | HTMLTextAreaElement>(
  value: unknown,
  defaultValue: unknown,
  onChange: ((e: ChangeEvent<E>) => void) | undefined,
  ref: Ref<E> | undefined,
  unit: CountUnit,
) {
  const [typed, setTyped] = useState(() => measure(String(defaultValue ?? ''), unit));
  // react-hook-form's register() writes the form's value into the element when it attaches.
  const element = useRef<E | null>(null);
  const read = useCallback(
    (el: E | null) => {
      element.current = el;
      if (el) setTyped(measure(el.value, unit));
    },
    [unit],
  );
  // A form reset (Discard changes) writes the element without a change event: read it after each
  // render (it sets state only when the length differs, so it settles at once).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    const el = element.current;
    if (el && measure(el.value, unit) !== typed) setTyped(measure(el.value, unit));
  });
  const attach = useMergedRef(ref, read);
  const length = value !== undefined && value !== null ? measure(String(value), unit) : typed;
  const handleChange = (e: ChangeEvent<E>) => {
    setTyped(measure(e.currentTarget.value, unit));
    onChange?.(e);
  };
  return [length, attach, handleChange] as const;
}

interface CountedInputProps<E extends HTMLInputElement | HTMLTextAreaElement> extends CountedProps {
  ref?: Ref<E>;
  onChange?: (e: ChangeEvent<E>) => void;
  value?: unknown;
  defaultValue?: unknown;
  label?: ReactNode;
}

/**
 * What a TextInput and a Textarea both need to show a counter: the live length read through its
 * ref and change events, and the counter placed under the input (Mantine's `inputContainer`).
 */
function useCounted<E extends HTMLInputElement | HTMLTextAreaElement>({
  max,
  unit = 'characters',
  ref,
  onChange,
  value,
  defaultValue,
  label,
}: CountedInputProps<E>) {
  const counterId = useId();
  const [length, attach, handleChange] = useLiveLength<E>(value, defaultValue, onChange, ref, unit);
  const name = typeof label === 'string' ? label : 'This field';
  return {
    ref: attach,
    onChange: handleChange,
    inputContainer: (children: ReactNode) => (
      <>
        {children}
        <Counter id={counterId} length={length} max={max} label={name} unit={unit} />
      </>
    ),
  };
}

export type CountedTextInputProps = TextInputProps & CountedProps & { ref?: Ref<HTMLInputElement> };

export function CountedTextInput({ max, unit, ref, onChange, ...props }: CountedTextInputProps) {
  return (
    <TextInput
      {...props}
      {...useCounted<HTMLInputElement>({ max, unit, ref, onChange, value: props.value, defaultValue: props.defaultValue, label: props.label })}
    />
  );
}

export type CountedTextareaProps = TextareaProps & CountedProps & { ref?: Ref<HTMLTextAreaElement> };

export function CountedTextarea({ max, unit, ref, onChange, ...props }: CountedTextareaProps) {
  return (
    <Textarea
      {...props}
      {...useCounted<HTMLTextAreaElement>({ max, unit, ref, onChange, value: props.value, defaultValue: props.defaultValue, label: props.label })}
    />
  );
}
