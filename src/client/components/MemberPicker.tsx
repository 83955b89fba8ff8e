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
import { CloseButton, Combobox, InputBase, Pill, PillsInput, VisuallyHidden } from '@mantine/core';
import { MemberPickerDropdown } from './MemberPickerDropdown.tsx';
import { labelOf, useMemberPicker, type MemberPickerProps } from './useMemberPicker.ts';

export type { MemberPickerProps, PickedMember } from './useMemberPicker.ts';

export function MemberPicker(props: MemberPickerProps) {
  const { label, description, placeholder = 'Search by name or username', error, required, disabled, describeMember, dialogAutoFocus } = props;
  const { clearLabel, id, combobox, ref, text, chosen, shownLabel, found, searching, members, more, status, open, pick, edit, clear, remove, onKeyDown } =
    useMemberPicker(props);
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

  const dropdown = (
    <MemberPickerDropdown
      id={id}
      members={members}
      chosen={chosen}
      describeMember={describeMember}
      searching={searching}
      more={more}
      total={found.data?.total}
      status={status}
    />
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
