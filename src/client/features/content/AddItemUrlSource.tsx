/** Add item from a URL: the type guessed from it, and optionally the portal's service proxy. */
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { withArticle } from '../../lib/format.ts';
import { AddItemProxyFields } from './AddItemProxyFields.tsx';
import { typeFromUrl } from './typeFromUrl.ts';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemUrlSource({
  form,
  err,
  onUrlChange,
  applyGuessedType,
}: AddItemSourceProps & { onUrlChange: (value: string) => void; applyGuessedType: (type: string) => void }) {
  const [url, type, useProxy] = useWatch({ control: form.control, name: ['url', 'type', 'useProxy'] });
  const guessedType = typeFromUrl(url);
  return (
    <Stack gap="sm">
      <TextInput
        label="URL"
        placeholder="https://services.example.com/arcgis/rest/services/Parks/FeatureServer"
        required
        error={err('url')}
        {...form.register('url', { onChange: (e: { target: { value: string } }) => onUrlChange(e.target.value) })}
      />
      {/* Read out as it changes: the type below may just have been filled in from it. */}
      <div aria-live="polite" data-testid="type-from-url">
        {guessedType ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {guessedType === type
                ? `The URL looks like ${withArticle(guessedType)}: Type is set to it. Change Type if it is something else.`
                : `The URL looks like ${withArticle(guessedType)}.`}
            </Text>
            {guessedType !== type ? (
              <Button size="compact-xs" variant="light" onClick={() => applyGuessedType(guessedType)}>
                Use {guessedType}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </div>
      <Checkbox
        label="Put the service behind the portal's proxy"
        description="The item gets a proxy URL that forwards to the service with stored credentials, limited to so many requests per interval."
        {...form.register('useProxy')}
        error={err('useProxy')}
      />
      {useProxy ? <AddItemProxyFields form={form} err={err} /> : null}
    </Stack>
  );
}
