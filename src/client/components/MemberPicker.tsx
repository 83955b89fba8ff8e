/**
 * Picks members of the organization by full name or username (`portals/<orgId>/users?q=`): one
 * member (`value` / `onChange` with a member or null) or, with `multiple`, several shown as pills.
 *
 * What the box shows and what is chosen are two separate things, and only one way leads from one to
 * the other: choosing an option sets the choice, editing the text drops it. The text is never fed
 * back from the choice into the search (a chosen member's label is not a search), so no answer of the
 * portal can change the text and no text can start another search by itself — the loop of issue 25,
 * where a Select's search followed its own label, then the label followed the search, for ever.
 *
 * The search goes out once the text has rested for SEARCH_DEBOUNCE_MS, keyed by that settled text:
 * one request per settled keystroke, none for text already asked (the cache answers), and the
 * previous list stays on screen meanwhile.
 */
import { CloseButton, Combobox, Group, InputBase, Pill, PillsInput, ScrollArea, Text, VisuallyHidden, useCombobox } from '@mantine/core';
import { useDebouncedValue, useMergedRef } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import type { PortalUser } from '../api/index.ts';
import { formatCount } from '../lib/format.ts';
import { IconCheck } from './icons.tsx';
import { memberPickerQuery } from '../api/queries/users.ts';

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

/** How long the text rests before it is searched: one request per settled keystroke, not per key. */
const SEARCH_DEBOUNCE_MS = 250;
/** Members per answer; more are reached by typing more of a name. */
const PAGE_SIZE = 25;

const labelOf = (m: PickedMember) => (m.fullName && m.fullName !== m.username ? `${m.fullName} (${m.username})` : m.username);
const sameMember = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
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

export function MemberPicker(props: SingleProps | MultipleProps) {
  const {
    orgId,
    label,
    description,
    placeholder = 'Search by name or username',
    error,
    required,
    disabled,
    exclude = [],
    describeMember,
    inputRef,
    dialogAutoFocus,
  } = props;
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

  const clearButton =
    (chosen.length || text) && !disabled ? (
      <CloseButton
        size="sm"
        aria-label={clearLabel}
        // Keeps focus in the box: the click clears and the box stays the place to type.
        onMouseDown={(e) => e.preventDefault()}
        onClick={clear}
      />
    ) : (
      <Combobox.Chevron />
    );

  const options = members.map((m) => {
    const isChosen = chosen.some((x) => sameMember(x.username, m.username));
    return (
      <Combobox.Option value={m.username} key={m.username} active={isChosen} aria-selected={isChosen}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconCheck size={14} style={{ visibility: isChosen ? 'visible' : 'hidden', flex: 'none', marginTop: 3 }} />
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} component="span">
              {m.fullName || m.username}
            </Text>{' '}
            <Text size="sm" c="dimmed" component="span">
              ({m.username})
            </Text>
            {describeMember ? (
              <Text size="xs" c="dimmed">
                {describeMember(m)}
              </Text>
            ) : null}
          </div>
        </Group>
      </Combobox.Option>
    );
  });

  const dropdown = (
    <Combobox.Dropdown>
      <Combobox.Options labelledBy={`${id}-label`}>
        <ScrollArea.Autosize mah={280} type="scroll">
          {options.length ? options : <Combobox.Empty>{searching ? 'Searching members…' : status || 'No members to choose from.'}</Combobox.Empty>}
        </ScrollArea.Autosize>
      </Combobox.Options>
      {options.length && (more || searching) ? (
        <Combobox.Footer>
          <Text size="xs" c="dimmed">
            {searching
              ? 'Searching members…'
              : `The first ${formatCount(members.length)} of ${formatCount(found.data!.total)}: type more of a name to narrow the list.`}
          </Text>
        </Combobox.Footer>
      ) : null}
    </Combobox.Dropdown>
  );

  // The result count and "Searching…", spoken without moving focus. The region is on the page from
  // the start (readers only speak changes to a region they know), outside the dropdown that comes and goes.
  const live = (
    <VisuallyHidden aria-live="polite" aria-atomic="true">
      {status}
    </VisuallyHidden>
  );

  const fieldProps = {
    id,
    placeholder: chosen.length && props.multiple ? undefined : placeholder,
    onChange: edit,
    onKeyDown,
    onClick: open,
    onBlur: () => combobox.closeDropdown(),
    disabled,
    ref,
    spellCheck: false,
    ...(dialogAutoFocus ? { 'data-autofocus': true } : {}),
  };
  const wrapperProps = {
    label,
    labelProps: { id: `${id}-label` },
    description,
    error,
    required,
    disabled,
    rightSection: clearButton,
    rightSectionPointerEvents: chosen.length || text ? ('all' as const) : ('none' as const),
  };

  if (props.multiple) {
    return (
      <>
        <Combobox store={combobox} onOptionSubmit={pick}>
          <Combobox.DropdownTarget>
            <PillsInput {...wrapperProps} onClick={open}>
              <Pill.Group>
                {props.value.map((m) => (
                  <Pill
                    key={m.username}
                    withRemoveButton={!disabled}
                    onRemove={() => remove(m.username)}
                    // Mantine hides the remove button from readers and the Tab key; here it is a button like any other.
                    removeButtonProps={{ 'aria-label': `Remove ${labelOf(m)}`, 'aria-hidden': false, tabIndex: 0 }}
                  >
                    {labelOf(m)}
                  </Pill>
                ))}
                <Combobox.EventsTarget withExpandedAttribute>
                  <PillsInput.Field {...fieldProps} value={text} />
                </Combobox.EventsTarget>
              </Pill.Group>
            </PillsInput>
          </Combobox.DropdownTarget>
          {dropdown}
        </Combobox>
        {live}
      </>
    );
  }

  return (
    <>
      <Combobox store={combobox} onOptionSubmit={pick}>
        <Combobox.Target withExpandedAttribute>
          <InputBase {...wrapperProps} {...fieldProps} value={shownLabel ?? text} />
        </Combobox.Target>
        {dropdown}
      </Combobox>
      {live}
    </>
  );
}
