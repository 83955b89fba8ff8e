/** Picks an item by title (search as you type) — or takes a pasted item id as it is. */
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { searchItems } from '../api/index.ts';
import { queryKeys } from '../lib/queryKeys.ts';

export interface ItemPickerProps {
  label: string;
  description?: string;
  value: string;
  onChange: (itemId: string) => void;
  error?: string;
  /** Items not to offer (e.g. the item itself). */
  exclude?: readonly string[];
  /** The search box, so a form can move focus to it when the field is invalid. */
  inputRef?: Ref<HTMLInputElement>;
}

const ITEM_ID = /^[A-Za-z0-9]{32}$/;

export function ItemPicker({ label, description, value, onChange, error, exclude = [], inputRef }: ItemPickerProps) {
  const [search, setSearch] = useState('');
  // Once an item is picked the box shows its label: that is not a new search.
  const [pickedLabel, setPickedLabel] = useState('');
  const [debounced] = useDebouncedValue(search === pickedLabel ? '' : search.trim(), 250);
  const q = !debounced || ITEM_ID.test(debounced) ? (ITEM_ID.test(debounced) ? `id:${debounced}` : '*') : `(${debounced.replace(/[()"]/g, ' ')})`;
  const found = useQuery({
    queryKey: [...queryKeys.items, 'picker', q],
    queryFn: ({ signal }) => searchItems({ q, num: 20, sortField: 'title', sortOrder: 'asc' }, { signal }),
    placeholderData: keepPreviousData,
  });
  const options = (found.data?.results ?? [])
    .filter((i) => !exclude.includes(i.id))
    .map((i) => ({ value: i.id, label: `${i.title} — ${i.type} (${i.owner})` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      label={label}
      description={description}
      placeholder="Search by title, or paste an item id"
      searchable
      clearable
      data={options}
      value={value || null}
      onChange={(v, option) => {
        setPickedLabel(option?.label ?? '');
        onChange(v ?? '');
      }}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'No items found'}
      error={error}
      ref={inputRef}
      filter={({ options: all }) => all}
    />
  );
}
