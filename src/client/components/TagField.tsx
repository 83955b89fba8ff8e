/**
 * The one tags input of the console. Mantine's TagsInput splits on a typed or pasted comma, but a
 * value that reaches it another way — Enter or leaving the field after a phone keyboard's comma (it
 * sends no "," key), autofill, a paste without clipboard data — becomes one tag with its comma
 * ("datastore,"). Every change is normalized here instead: split on the separators, trimmed, empty
 * and repeated (case-insensitively) tags dropped, so no input can keep a separator in a tag.
 */
import { TagsInput, type TagsInputProps } from '@mantine/core';

interface TagFieldProps extends Omit<TagsInputProps, 'value' | 'onChange' | 'splitChars'> {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Extra separators besides the comma (e.g. a space for referrer URLs). */
  alsoSplitOn?: string[];
}

/** Tags as they should be stored: each separator splits, whitespace trimmed, no empties, no repeats. */
function normalizeTags(tags: readonly string[], separators: readonly string[] = [',']): string[] {
  const pattern = new RegExp(`[${separators.map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('')}]`);
  const out: string[] = [];
  for (const raw of tags)
    for (const piece of raw.split(pattern)) {
      const tag = piece.trim();
      if (tag && !out.some((t) => t.toLowerCase() === tag.toLowerCase())) out.push(tag);
    }
  return out;
}

export function TagField({ value, onChange, alsoSplitOn = [], ...rest }: TagFieldProps) {
  const separators = [',', ...alsoSplitOn];
  return <TagsInput {...rest} value={value} splitChars={separators} acceptValueOnBlur onChange={(next) => onChange(normalizeTags(next, separators))} />;
}
