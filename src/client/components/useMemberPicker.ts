/**
 * The state of the member picker: the typed search (never the chosen member's label, see
 * MemberPicker.tsx), the search that goes out once it settles, the status spoken to screen readers,
 * and choosing, typing over, clearing and removing members.
 */
import { useCombobox, type ComboboxStore } from '@mantine/core';
import { useDebouncedValue, useMergedRef } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useId, useLayoutEffect, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { memberPickerQuery } from '../api/queries/users.ts';
import { formatCount } from '../lib/format.ts';
import type { PortalUser } from '../api/index.ts';

/** A chosen member: enough to show and to send, whether or not the current list holds them. */
export interface PickedMember {
  username: string;
  fullName: string;
}

interface CommonProps {
  orgId: string;
  label: string;
  description?: ReactNode;
  placeholder?: string;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** Usernames not to offer (e.g. the member whose content is transferred); case does not matter. */
  exclude?: readonly string[];
  /** A line under a member's name in the list, e.g. whether they may be added. */
  describeMember?: (member: PortalUser) => ReactNode;
  /** The clear button's name; "Clear <label>" by default. */
  clearLabel?: string;
  /** The text box, so a form can move focus to it when the field is invalid. */
  inputRef?: Ref<HTMLInputElement>;
  /** The field a dialog focuses when it opens (Mantine's `data-autofocus`). */
  dialogAutoFocus?: boolean;
}

interface SingleProps extends CommonProps {
  multiple?: false;
  value: PickedMember | null;
  onChange: (member: PickedMember | null) => void;
}

interface MultipleProps extends CommonProps {
  multiple: true;
  value: readonly PickedMember[];
  onChange: (members: PickedMember[]) => void;
}

export type MemberPickerProps = SingleProps | MultipleProps;

/** How long the text rests before it is searched: one request per settled keystroke, not per key. */
const SEARCH_DEBOUNCE_MS = 250;
/** Members per answer; more are reached by typing more of a name. */
const PAGE_SIZE = 25;

export const labelOf = (m: PickedMember) => (m.fullName && m.fullName !== m.username ? `${m.fullName} (${m.username})` : m.username);
export const sameMember = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * What an edit of a shown label added: the text between the part of the label kept in front and the
 * part kept behind. Typing "ub" after "Pat Publisher (publisher1)" gives "ub", replacing a selection
 * of it gives the new text, deleting from it gives "" — never a mix of the label and the typing.
 */
function typedInto(label: string, next: string): string {
  let front = 0;
  while (front < label.length && front < next.length && label[front] === next[front]) front++;
  let back = 0;
  while (back < label.length - front && back < next.length - front && label[label.length - 1 - back] === next[next.length - 1 - back]) back++;
  return next.slice(front, next.length - back);
}

const memberSearchQuery = (orgId: string, q: string) => memberPickerQuery(orgId, q, PAGE_SIZE);

/**
 * Keeps Enter on the member that is highlighted when a new answer replaces the list. Mantine's
 * combobox remembers the highlight as a position and Enter clicks the option at that position, while
 * the highlight itself stays on the member's option (React keeps the element): after arrowing down the
 * first page to a member, a search answer listing only that member left Enter picking nothing, and a
 * longer answer would have picked whoever now stood at that position. After each new list the
 * position is read back from the highlighted option (-1, nothing highlighted, when that member is no
 * longer listed).
 */
function useHighlightFollowsList(combobox: ComboboxStore, listed: string) {
  useLayoutEffect(() => {
    const list = combobox.listId ? document.getElementById(combobox.listId) : null;
    const options = list ? Array.from(list.querySelectorAll('[data-combobox-option]')) : [];
    const index = options.findIndex((option) => option.hasAttribute('data-combobox-selected'));
    if (index !== combobox.getSelectedOptionIndex()) combobox.updateSelectedOptionIndex(index);
    // Only a new list moves the options; the store's methods are stable across renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listed]);
}

export function useMemberPicker(props: MemberPickerProps) {
  const { orgId, label, disabled, exclude = [], inputRef } = props;
  const clearLabel = props.clearLabel ?? `Clear ${lowerFirst(label)}`;
  const id = useId();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // The text box itself (in the pills box the combobox's target is the wrapper, not the box).
  const box = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(box, inputRef);
  // Only what the person typed: the search. A chosen member's label is shown instead of it, not put in it.
  const [text, setText] = useState('');
  const chosen: readonly PickedMember[] = props.multiple ? props.value : props.value ? [props.value] : [];
  const shownLabel = !props.multiple && props.value ? labelOf(props.value) : null;
  const term = shownLabel === null ? text.trim() : '';

  const [settled] = useDebouncedValue(term, SEARCH_DEBOUNCE_MS);
  // Asked only while the list is open (a field on screen, or a choice made, costs no request), and
  // only for settled text: the first keystroke in an empty box does not first ask for "everyone".
  const found = useQuery({ ...memberSearchQuery(orgId, settled), enabled: combobox.dropdownOpened && !disabled && term === settled });
  const searching = term !== settled || found.isFetching;

  const members = (found.data?.users ?? []).filter((m) => !exclude.some((x) => sameMember(x, m.username)));
  useHighlightFollowsList(combobox, members.map((m) => m.username).join('\n'));
  const more = found.data ? found.data.total > found.data.users.length : false;
  const status = !combobox.dropdownOpened
    ? ''
    : searching && !found.data
      ? 'Searching members…'
      : found.isError
        ? 'Members could not be searched.'
        : !members.length
          ? settled
            ? `No member matches “${settled}”.`
            : 'No members to choose from.'
          : more
            ? `${formatCount(members.length)} of ${formatCount(found.data!.total)} members listed; type more of a name to narrow the list.`
            : `${formatCount(members.length)} member${members.length === 1 ? '' : 's'} found.`;

  const open = () => combobox.openDropdown();

  function pick(username: string) {
    const m = members.find((x) => x.username === username);
    if (!m) return;
    const picked = { username: m.username, fullName: m.fullName };
    setText('');
    if (props.multiple) {
      const has = props.value.some((x) => sameMember(x.username, m.username));
      props.onChange(has ? props.value.filter((x) => !sameMember(x.username, m.username)) : [...props.value, picked]);
      // The list stays open for the next member; the highlight goes back to the first.
      combobox.resetSelectedOption();
    } else {
      props.onChange(picked);
      combobox.closeDropdown();
    }
  }

  function edit(e: ChangeEvent<HTMLInputElement>) {
    const next = e.currentTarget.value;
    if (shownLabel !== null && !props.multiple) {
      // Typing replaces the choice: the choice goes, and the box keeps only what was typed.
      setText(typedInto(shownLabel, next));
      props.onChange(null);
    } else {
      setText(next);
    }
    combobox.resetSelectedOption();
    open();
  }

  function clear() {
    setText('');
    if (props.multiple) props.onChange([]);
    else props.onChange(null);
    box.current?.focus();
    open();
  }

  function remove(username: string) {
    if (props.multiple) props.onChange(props.value.filter((x) => !sameMember(x.username, username)));
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // In the pills box, Backspace in an empty search takes back the last member added.
    if (props.multiple && e.key === 'Backspace' && !text && props.value.length) remove(props.value[props.value.length - 1].username);
  };

  return { clearLabel, id, combobox, ref, text, chosen, shownLabel, found, searching, members, more, status, open, pick, edit, clear, remove, onKeyDown };
}
