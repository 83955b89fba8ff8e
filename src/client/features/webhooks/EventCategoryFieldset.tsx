/** One category of the catalogue: all its events, each of its verbs, and (where it has them) one specific subject's events. */
import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import type { EVENT_CATALOGUE } from '../../../shared/events.ts';
import { CATEGORY_LABEL, verbLabel } from './eventWords.ts';
import { EventSubjectAdder } from './EventSubjectAdder.tsx';

export function EventCategoryFieldset({
  category,
  selected,
  toggle,
}: {
  category: (typeof EVENT_CATALOGUE)[keyof typeof EVENT_CATALOGUE];
  selected: ReadonlySet<string>;
  toggle: (uri: string, on: boolean) => void;
}) {
  const label = CATEGORY_LABEL[category.source];
  const all = selected.has(category.root);
  return (
    <Fieldset legend={label.title} variant="filled" p="sm">
      <Stack gap={6}>
        <Checkbox label={`All ${label.title.toLowerCase()} events`} checked={all} onChange={(e) => toggle(category.root, e.currentTarget.checked)} />
        <SimpleGrid cols={2} spacing={4} verticalSpacing={8}>
          {category.verbs.map((verb) => {
            const uri = `${category.root}/${verb}`;
            return (
              <Checkbox
                key={verb}
                label={verbLabel(verb)}
                aria-label={`${label.title}: ${verbLabel(verb)}`}
                checked={all || selected.has(uri)}
                disabled={all}
                onChange={(e) => toggle(uri, e.currentTarget.checked)}
              />
            );
          })}
        </SimpleGrid>
        {category.subjectVerbs.length ? <EventSubjectAdder source={category.source} onAdd={(uri) => toggle(uri, true)} /> : null}
      </Stack>
    </Fieldset>
  );
}
