/** The parameters of the chosen task type: a report's kind and title, a scene cook's service, a geoprocessing task's URL and inputs. */
import { NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { sentence } from '../../lib/forms.ts';
import { usesJson, type TaskFormInput } from './schemas.ts';
import type { TaskFormApi } from './useTaskForm.ts';

export function TaskTypeParameters({ form, type }: { form: TaskFormApi; type: TaskFormInput['type'] }) {
  const { errors } = form.formState;
  const msg = (e: { message?: string } | undefined) => (e?.message ? sentence(e.message) : undefined);
  if (type === 'ExecuteReport') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="reportType"
          render={({ field }) => (
            <Select
              label="Report of"
              allowDeselect={false}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              data={[
                { value: 'members', label: 'Members' },
                { value: 'items', label: 'Items' },
                { value: 'groups', label: 'Groups' },
              ]}
              description="Each run saves a CSV item in your content."
            />
          )}
        />
        <TextInput label="Report item title" description="The run's date is added." {...form.register('reportTitle')} error={msg(errors.reportTitle)} />
      </SimpleGrid>
    );
  }
  if (type === 'ExecuteSceneCook') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Scene service URL" required {...form.register('serviceUrl')} error={msg(errors.serviceUrl)} />
        <Controller
          control={form.control}
          name="instances"
          render={({ field }) => (
            <NumberInput
              label="Caching service instances"
              min={1}
              max={64}
              value={field.value}
              onChange={(v) => field.onChange(Number(v) || 1)}
              error={msg(errors.instances)}
            />
          )}
        />
        <TextInput label="Layer" description="Blank: all layers." {...form.register('layer')} />
        <Controller
          control={form.control}
          name="updateMode"
          render={({ field }) => (
            <Select
              label="Update mode"
              allowDeselect={false}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              data={['RECREATE_ALL_NODES', 'PARTIAL_UPDATE_NODES', 'PARTIAL_UPDATE_ATTRIBUTES']}
            />
          )}
        />
      </SimpleGrid>
    );
  }
  return (
    <Stack gap="sm">
      {type === 'GPService' ? (
        <TextInput
          label="Geoprocessing task URL"
          required
          placeholder="https://server/arcgis/rest/services/Tool/GPServer/Task"
          description="Jobs are submitted with your administrator token."
          {...form.register('taskURL')}
          error={msg(errors.taskURL)}
        />
      ) : null}
      {usesJson(type) ? (
        <Textarea
          label={type === 'GPService' ? 'Job inputs (JSON)' : 'Parameters (JSON, optional)'}
          autosize
          minRows={3}
          ff="monospace"
          placeholder={type === 'GPService' ? '{"Input_Features": {"url": "https://…/FeatureServer/0"}}' : '{}'}
          {...form.register('parametersJson')}
          error={msg(errors.parametersJson)}
        />
      ) : null}
      {type !== 'GPService' ? (
        <Text size="xs" c="dimmed">
          Runs of this type are handed to the runner the portal is configured with; without one they fail, saying so.
        </Text>
      ) : null}
    </Stack>
  );
}
