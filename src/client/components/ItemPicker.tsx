/**
 * Picks an item: typed text searches the portal among the item types the field accepts (`types`),
 * in the portal's order with the best title matches first (itemPickerSearch.ts), 20 at a time with
 * "Load more" as the list's last option; or an id, pasted or typed, is looked up once typing
 * settles and chosen when it exists ("No item with this id" when it does not, or the member cannot
 * see it). The chosen item goes to `onChange` with its id, so the form can fill what follows from it.
 */
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { searchItems, type Item } from '../api/index.ts';
import { announce } from '../lib/announce.ts';
import { itemKeys, itemPickerQuery } from '../api/queries/items.ts';
import { ITEM_ID, PICKER_PAGE_SIZE, pickerSearch, rankPage } from './itemPickerSearch.ts';

export interface ItemPickerProps {
  label: string;
  description?: string;
  value: string;
  /** The chosen id, with the item when the picker knows it (its title for a confirmation, its URL for a form). */
  onChange: (itemId: string, item?: Item) => void;
  error?: string;
  /** Items not to offer (e.g. the item itself). */
  exclude?: readonly string[];
  /** The item types the field accepts (e.g. ['Scene Service']); every type when absent. */
  types?: readonly string[];
  /** The search box, so a form can move focus to it when the field is invalid. */
  inputRef?: Ref<HTMLInputElement>;
}

/** Long runs of hex digits that are not 32 long: an id cut short or pasted twice, not a title. */
const NEAR_ID = /^[0-9a-f]{20,}$/i;
const MORE = '\u0000more';

const optionLabel = (i: Pick<Item, 'title' | 'type' | 'owner'>) => `${i.title} — ${i.type} (${i.owner})`;

export function ItemPicker({ label, description, value, onChange, error, exclude = [], types, inputRef }: ItemPickerProps) {
  const [search, setSearch] = useState('');
  // The list stays open when "Load more" is chosen (Select closes it on any choice).
  const [open, setOpen] = useState(false);
  const loadingMore = useRef(false);
  // The label of the item picked from the list (known before its lookup below answers).
  const [pickedLabel, setPickedLabel] = useState('');
  // The chosen item by its id (a value set by the form, picked, or found by a typed id): shown by its title, not the bare id.
  const chosen = useQuery({ ...itemPickerQuery(`id:${value}`), enabled: ITEM_ID.test(value) });
  const chosenItem = chosen.data?.results.find((i) => i.id === value);
  const chosenLabel = chosenItem ? optionLabel(chosenItem) : pickedLabel;
  // Once an item is chosen the box shows its label: that is not a new search.
  const [debounced] = useDebouncedValue(value && (search === chosenLabel || search === pickedLabel) ? '' : search.trim(), 250);
  const typedId = ITEM_ID.test(debounced) ? debounced : '';
  const { q, sorted } = pickerSearch(debounced, types);
  const found = useInfiniteQuery({
    queryKey: [...itemKeys.picker(q), 'pages', sorted] as const,
    queryFn: ({ pageParam, signal }) =>
      searchItems({ q, num: PICKER_PAGE_SIZE, start: pageParam, ...(sorted ? { sortField: 'title', sortOrder: 'asc' } : {}) }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.nextStart > 0 ? last.nextStart : undefined),
    placeholderData: keepPreviousData,
  });
  const results = useMemo(() => (found.data?.pages ?? []).flatMap((p) => rankPage(p.results, debounced)), [found.data, debounced]);
  const total = found.data?.pages[0]?.total ?? 0;

  const options = results.filter((i) => !exclude.includes(i.id)).map((i) => ({ value: i.id, label: optionLabel(i) }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: chosenLabel || value });
  // Past the first page: the list's last option asks for the next one (reached with the arrow keys too).
  if (found.hasNextPage) options.push({ value: MORE, label: `Load more (${results.length} of ${total} shown)` });

  // The typed id, checked: settled only once the search for it has answered (not the previous list).
  const idAnswered = !!typedId && !found.isPlaceholderData && !found.isFetching && !!found.data;
  const match = idAnswered ? results.find((i) => i.id === typedId) : undefined;
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
          : types?.length && !types.includes(match.type)
            ? `That is a ${match.type}; this field takes ${types.join(' or ')}`
            : undefined;

  // A found id is chosen at once — the member typed or pasted exactly it — and the box then shows its title.
  const pick = match && !idProblem && value !== match.id ? match : undefined;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!pick) return;
    // The id's search has answered: it is also the chosen item's lookup (the same `id:` query), so that
    // lookup is not sent a second time.
    const answer = found.data?.pages[0];
    if (answer) queryClient.setQueryData(itemPickerQuery(`id:${pick.id}`).queryKey, answer);
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
        if (v === MORE) {
          void found.fetchNextPage().then(() => announce('More items listed.'));
          return;
        }
        setPickedLabel(option?.label ?? '');
        const item = results.find((i) => i.id === v) ?? (v === value ? chosenItem : undefined);
        onChange(v ?? '', item);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={found.isFetching ? 'Searching…' : typedId ? 'No item with this id' : 'No items found'}
      error={error ?? idProblem}
      ref={inputRef}
      filter={({ options: all }) => all}
      dropdownOpened={open}
      onDropdownOpen={() => setOpen(true)}
      onDropdownClose={() => {
        if (!loadingMore.current) setOpen(false);
        loadingMore.current = false;
      }}
      onOptionSubmit={(v) => {
        loadingMore.current = v === MORE;
      }}
    />
  );
}
