/** The service proxy of a URL item: its rate limit, stored credentials and allowed referrers. */
import { Fieldset, NumberInput, PasswordInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { TagField } from '../../components/TagField.tsx';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemProxyFields({ form, err }: AddItemSourceProps) {
  return (
    <Fieldset legend="Service proxy">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="hitsPerInterval"
          render={({ field }) => (
            <NumberInput
              label="Requests per interval"
              min={1}
              max={1_000_000}
              value={field.value}
              onChange={(n) => field.onChange(Number(n) || 0)}
              error={err('hitsPerInterval')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="intervalSeconds"
          render={({ field }) => (
            <NumberInput
              label="Interval (seconds)"
              min={1}
              max={86_400}
              value={field.value}
              onChange={(n) => field.onChange(Number(n) || 0)}
              error={err('intervalSeconds')}
            />
          )}
        />
        <TextInput label="Service username" autoComplete="off" {...form.register('serviceUsername')} error={err('serviceUsername')} />
        <PasswordInput label="Service password" autoComplete="new-password" {...form.register('servicePassword')} error={err('servicePassword')} />
      </SimpleGrid>
      <Controller
        control={form.control}
        name="referrers"
        render={({ field }) => (
          <TagField
            mt="sm"
            label="Allowed referrers"
            description="Sites that may use the proxy, e.g. https://*.example.com. None: any."
            value={field.value}
            onChange={field.onChange}
            alsoSplitOn={[' ']}
            error={err('referrers')}
          />
        )}
      />
      <Text size="xs" c="dimmed" mt="xs">
        The credentials are stored on the portal and never shown again.
      </Text>
    </Fieldset>
  );
}
