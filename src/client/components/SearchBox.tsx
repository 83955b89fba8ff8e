/**
 * A list's search field whose text lives in the address (`q`): searches as you type (debounced),
 * at once on Enter, and shows the address's search again after back/forward.
 */
import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState, type Ref } from 'react';
import { IconSearch } from './icons.tsx';

interface SearchBoxProps {
  /** The search in the address. */
  value: string;
  /** Put a new search in the address (replacing the history entry). */
  onSearch: (q: string) => void;
  label: string;
  placeholder: string;
  /** The field, for focus to come back to. */
  inputRef?: Ref<HTMLInputElement>;
}

export function SearchBox({ value, onSearch, label, placeholder, inputRef }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), 300);
  // The last search this box put in the address, to tell its own changes from back/forward.
  const pushed = useRef(value);
  useEffect(() => {
    if (debounced !== value && debounced !== pushed.current) {
      pushed.current = debounced;
      onSearch(debounced);
    }
    // Runs when the typed text settles, not when the address (value) or the callback changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  useEffect(() => {
    if (value !== pushed.current) {
      pushed.current = value;
      setText(value);
    }
  }, [value]);
  return (
    <TextInput
      ref={inputRef}
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          pushed.current = text.trim();
          onSearch(text.trim());
        }
      }}
      type="search"
      style={{ flex: '1 1 260px' }}
      maw={420}
    />
  );
}
