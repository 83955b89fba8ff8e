/**
 * "Start from" for a Data Store item's JSON: the three shapes the portal accepts (enterprise
 * geodatabase, folder, cloud store — src/shared/dataStore.ts), each filled in with placeholders to
 * replace. Choosing one over text already typed asks first.
 */
import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { DATA_STORE_TEMPLATES, type DataStoreKind } from '../../../shared/dataStore.ts';

export function DataStoreTemplatePicker({ text, onPick }: { text: string; onPick: (json: string) => void }) {
  const pick = (kind: DataStoreKind) => {
    const { label, json } = DATA_STORE_TEMPLATES[kind];
    const fill = () => onPick(JSON.stringify(json, null, 2));
    if (!text.trim()) return fill();
    modals.openConfirmModal({
      title: 'Replace the text?',
      children: <Text size="sm">The {label.toLowerCase()} template replaces what is in the field now.</Text>,
      labels: { confirm: 'Replace', cancel: 'Keep my text' },
      cancelProps: { 'data-autofocus': true },
      onConfirm: fill,
    });
  };
  return (
    <Group gap="xs" mb="xs" role="group" aria-label="Start from a data store template">
      <Text size="sm">Start from:</Text>
      {(Object.keys(DATA_STORE_TEMPLATES) as DataStoreKind[]).map((kind) => (
        <Button key={kind} size="compact-sm" variant="light" onClick={() => pick(kind)}>
          {DATA_STORE_TEMPLATES[kind].label}
        </Button>
      ))}
    </Group>
  );
}
