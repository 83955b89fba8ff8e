/**
 * Picks an item by title (search as you type) — or by its id, pasted or typed: the id is looked up
 * once typing settles, and the item is chosen and shown by its title when it exists; "No item with
 * this id" when it does not (or the member cannot see it).
 */
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type Ref } from 'react';
import type { Item } from '../api/index.ts';
import { announce } from '../lib/announce.ts';
import { itemPickerQuery } from '../api/queries/items.ts';

export interface ItemPickerProps {
  label: string;
  description?: string;
  value: string;
  /** The chosen id, with the item when the picker knows it (its title for a confirmation). */
  onChange: (itemId: string, item?: Item) => void;
  error?: string;
  /** Items not to offer (e.g. the item itself). */
  exclude?: readonly string[];
  /** The search box, so a form can move focus to it when the field is invalid. */
  inputRef?: Ref<HTMLInputElement>;
}

const ITEM_ID = /^[A-Za-z0-9]{32}$/;
/** Long runs of hex digits that are not 32 long: an id cut short or pasted twice, not a title. */
const NEAR_ID = /^[0-9a-f]{20,}$/i;

const optionLabel = (i: Pick<Item, 'title' | 'type' | 'owner'>) => `${i.title} — ${i.type} (${i.owner})`;

export function ItemPicker({ label, description, value, onChange, error, exclude = [], inputRef }: ItemPickerProps) {
  const [search, setSearch] = useState('');
  // The label of the item picked from the list (known before its lookup below answers).
  const [pickedLabel, setPickedLabel] = useState('');
  // The chosen item by its id (a value set by the form, picked, or found by a typed id): shown by
  // its title, not the bare id. Its key is the id search's, so a found id needs no second request.
  const chosen = useQuery({ ...itemPickerQuery(`id:${value}`), enabled: ITEM_ID.test(value) });
  const chosenItem = chosen.data?.results.find((i) => i.id === value);
  const chosenLabel = chosenItem ? optionLabel(chosenItem) : pickedLabel;
  // Once an item is chosen the box shows its label: that is not a new search.
  const [debounced] = useDebouncedValue(value && (search === chosenLabel || search === pickedLabel) ? '' : search.trim(), 250);
  const typedId = ITEM_ID.test(debounced) ? debounced : '';
  const q = typedId ? `id:${typedId}` : debounced ? `(${debounced.replace(/[()"]/g, ' ')})` : '*';
  const found = useQuery({ ...itemPickerQuery(q), placeholderData: keepPreviousData });

  const options = (found.data?.results ?? []).filter((i) => !exclude.includes(i.id)).map((i) => ({ value: i.id, label: optionLabel(i) }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: chosenLabel || value });

  // The typed id, checked: settled only once the search for it has answered (not the previous list).
  const idAnswered = !!typedId && !found.isPlaceholderData && !found.isFetching && !!found.data;
  const match = idAnswered ? found.data?.results.find((i) => i.id === typedId) : undefined;
  const idProblem = !typedId
    ? NEAR_ID.test(debounced) && search.trim() === debounced
      ? `An item id has 32 letters and digits; this has ${debounced.length}`
      : undefined
    : !idAnswered
      ? undefined
      : !match
        ? 'No item with this id'
        : exclude.includes(match.id)
          ? 'That is this item: choose another one'
          : undefined;

  // A found id is chosen at once — the member typed or pasted exactly it — and the box then shows
  // its title (the Select puts the chosen option's label in the box).
  const pick = match && !exclude.includes(match.id) && value !== match.id ? match : undefined;
  useEffect(() => {
    if (!pick) return;
    onChange(pick.id, pick);
    announce(`Item found: ${pick.title}`);
    // Once per found item: `onChange` is the parent's and may change on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pick?.id]);
  useEffect(() => {
    if (idProblem) announce(idProblem);
  }, [idProblem]);

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
        const item = found.data?.results.find((i) => i.id === v) ?? (v === value ? chosenItem : undefined);
        onChange(v ?? '', item);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={found.isFetching ? 'Searching…' : typedId ? 'No item with this id' : 'No items found'}
      error={error ?? idProblem}
      ref={inputRef}
      filter={({ options: all }) => all}
    />
  );
}
