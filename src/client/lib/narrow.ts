/**
 * Phones and narrow windows (below Mantine's `sm`, 48em): where tables stack their rows into
 * labelled cards and list filters fold behind a "Filters" button. Read on the first render, so a
 * phone never lays out the wide form first.
 */
import { useMediaQuery } from '@mantine/hooks';

export const NARROW_QUERY = '(max-width: 47.99em)';

export function useNarrowScreen(): boolean {
  return useMediaQuery(NARROW_QUERY, false, { getInitialValueInEffect: false });
}
