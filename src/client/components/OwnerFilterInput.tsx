/**
 * A list's owner filter, typed freely: applied when the field is left (if changed) or on Enter,
 * not at each keystroke, so a half-typed username does not start a search. Keyed on the applied
 * owner so a change from elsewhere (the address, a reset) shows in the field.
 */
import { TextInput } from '@mantine/core';

export function OwnerFilterInput({ owner, onApply, w }: { owner: string; onApply: (owner: string) => void; w: number }) {
  return (
    <TextInput
      label="Owner"
      placeholder="Username"
      defaultValue={owner}
      key={`owner-${owner}`}
      onBlur={(e) => e.currentTarget.value.trim() !== owner && onApply(e.currentTarget.value.trim())}
      onKeyDown={(e) => e.key === 'Enter' && onApply(e.currentTarget.value.trim())}
      w={w}
    />
  );
}
