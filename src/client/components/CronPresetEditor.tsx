/** The simple view of a schedule: a repeat and its time, days or day of the month (UTC). */
import { Chip, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Preset } from './cronSchedule.ts';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function CronPresetEditor({ preset, onChange }: { preset: Preset; onChange: (p: Preset) => void }) {
  const set = (patch: Partial<Preset>) => onChange({ ...preset, ...patch });
  const timeInput = (
    <TextInput
      type="time"
      label="Time (UTC)"
      value={preset.time}
      onChange={(e) => e.currentTarget.value && set({ time: e.currentTarget.value })}
      required
      w={140}
    />
  );
  return (
    <Stack gap="sm">
      <Select
        label="Repeat"
        allowDeselect={false}
        value={preset.kind}
        onChange={(v) => v && set({ kind: v })}
        data={[
          { value: 'minutes', label: 'Every N minutes' },
          { value: 'hourly', label: 'Every hour' },
          { value: 'daily', label: 'Every day' },
          { value: 'weekdays', label: 'Every weekday (Monday to Friday)' },
          { value: 'weekly', label: 'Weekly on chosen days' },
          { value: 'monthly', label: 'Monthly' },
        ]}
        w={320}
      />
      {preset.kind === 'minutes' ? (
        <NumberInput
          label="Every how many minutes"
          min={1}
          max={59}
          value={preset.every}
          onChange={(v) => typeof v === 'number' && v >= 1 && v <= 59 && set({ every: v })}
          w={200}
        />
      ) : null}
      {preset.kind === 'hourly' ? (
        <NumberInput
          label="Minutes past the hour"
          min={0}
          max={59}
          value={preset.minute}
          onChange={(v) => typeof v === 'number' && v >= 0 && v <= 59 && set({ minute: v })}
          w={200}
        />
      ) : null}
      {preset.kind === 'daily' || preset.kind === 'weekdays' ? timeInput : null}
      {preset.kind === 'weekly' ? (
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            On
          </Text>
          <Chip.Group multiple value={preset.days.map(String)} onChange={(v) => v.length && set({ days: v.map(Number) })}>
            <Group gap={6}>
              {DAY_NAMES.map((d, i) => (
                <Chip key={d} value={String(i + 1)} size="sm">
                  {d.slice(0, 3)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {timeInput}
        </Stack>
      ) : null}
      {preset.kind === 'monthly' ? (
        <Group align="end">
          <Select
            label="Day of the month"
            allowDeselect={false}
            value={String(preset.monthDay)}
            onChange={(v) => v && set({ monthDay: v === 'L' ? 'L' : Number(v) })}
            data={[...Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })), { value: 'L', label: 'Last day' }]}
            w={160}
          />
          {timeInput}
        </Group>
      ) : null}
      {preset.kind === 'monthly' && typeof preset.monthDay === 'number' && preset.monthDay > 28 ? (
        <Text size="xs" c="dimmed">
          Months without day {preset.monthDay} are skipped; choose “Last day” to run at every month end.
        </Text>
      ) : null}
    </Stack>
  );
}
