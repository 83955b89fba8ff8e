/**
 * The schedule builder: presets people can trust (every N minutes, hourly, daily, weekdays, weekly
 * on chosen days, monthly on a day or the last day) or the five CRON fields by hand, with the
 * schedule in words and its next five runs in local time and UTC. Schedules are in UTC (what the
 * service runs by); times entered here are UTC and say so.
 */
import { Alert, Badge, Chip, Group, NumberInput, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import {
  bothDayFieldsSet,
  CRON_FIELDS,
  describeSchedule,
  nextRuns,
  validateSchedule,
  type CronField,
  type CronSchedule,
  type RunWindow,
} from '../../shared/cron.ts';
import { IconAlert } from './icons.tsx';

export type PresetKind = 'minutes' | 'hourly' | 'daily' | 'weekdays' | 'weekly' | 'monthly';

export interface Preset {
  kind: PresetKind;
  /** every N minutes */
  every: number;
  /** minute past the hour (hourly) */
  minute: number;
  /** "HH:MM" (UTC) */
  time: string;
  /** Quartz day numbers 1–7 = Sunday–Saturday (weekly) */
  days: number[];
  /** 1–31 or 'L' (monthly) */
  monthDay: number | 'L';
}

export const DEFAULT_PRESET: Preset = { kind: 'weekdays', every: 15, minute: 0, time: '07:30', days: [2], monthDay: 1 };

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function hm(time: string): [number, number] {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!m) return [0, 0];
  return [Math.min(23, Number(m[1])), Math.min(59, Number(m[2]))];
}

/** The five fields a preset stands for (Quartz style: one day field is `?`). */
export function presetToSchedule(p: Preset): CronSchedule {
  const [h, m] = hm(p.time);
  const at = { minute: String(m), hour: String(h) };
  switch (p.kind) {
    case 'minutes':
      return { minute: `*/${p.every}`, hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'hourly':
      return { minute: String(p.minute), hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'daily':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'weekdays':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
    case 'weekly':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: [...new Set(p.days)].sort((a, b) => a - b).join(',') || '2' };
    case 'monthly':
      return { ...at, dayOfMonth: String(p.monthDay), month: '*', dayOfWeek: '?' };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The preset a schedule is, if it is one (so editing a task opens in the simple view). */
export function scheduleToPreset(s: CronSchedule): Preset | null {
  const num = (v: string, max: number) => (/^\d{1,2}$/.test(v) && Number(v) <= max ? Number(v) : null);
  const minute = num(s.minute, 59);
  const hour = num(s.hour, 23);
  const anyDom = s.dayOfMonth === '?' || s.dayOfMonth === '*';
  const anyDow = s.dayOfWeek === '?' || s.dayOfWeek === '*';
  if (s.month !== '*') return null;
  const every = /^\*\/(\d{1,2})$/.exec(s.minute);
  if (every && s.hour === '*' && anyDom && anyDow) return { ...DEFAULT_PRESET, kind: 'minutes', every: Number(every[1]) };
  if (minute !== null && s.hour === '*' && anyDom && anyDow) return { ...DEFAULT_PRESET, kind: 'hourly', minute };
  if (minute === null || hour === null) return null;
  const time = `${pad(hour)}:${pad(minute)}`;
  if (s.dayOfMonth === '?' || (s.dayOfMonth === '*' && s.dayOfWeek === '*')) {
    if (anyDow) return { ...DEFAULT_PRESET, kind: 'daily', time };
    if (s.dayOfMonth === '?' && s.dayOfWeek === '2-6') return { ...DEFAULT_PRESET, kind: 'weekdays', time };
    if (s.dayOfMonth === '?' && /^[1-7](,[1-7])*$/.test(s.dayOfWeek))
      return { ...DEFAULT_PRESET, kind: 'weekly', time, days: s.dayOfWeek.split(',').map(Number) };
    return null;
  }
  if (s.dayOfWeek === '?' && (s.dayOfMonth === 'L' || num(s.dayOfMonth, 31)))
    return { ...DEFAULT_PRESET, kind: 'monthly', time, monthDay: s.dayOfMonth === 'L' ? 'L' : Number(s.dayOfMonth) };
  return null;
}

export interface SchedulePreview {
  errors: Partial<Record<CronField, string>>;
  words: string | null;
  runs: number[];
  bothDays: boolean;
}

/** Words, next runs and errors for a schedule (no React; tested directly). */
export function previewSchedule(s: CronSchedule, now: number, window: RunWindow = {}, count = 5): SchedulePreview {
  const check = validateSchedule(s);
  if (!check.ok) return { errors: check.errors, words: null, runs: [], bothDays: false };
  return { errors: {}, words: describeSchedule(s), runs: nextRuns(s, now, count, window), bothDays: bothDayFieldsSet(s) };
}

const LABELS: Record<CronField, string> = { minute: 'Minute', hour: 'Hour', dayOfMonth: 'Day of month', month: 'Month', dayOfWeek: 'Day of week' };
const HINTS: Record<CronField, string> = {
  minute: '0–59, */15',
  hour: '0–23',
  dayOfMonth: '1–31, L, 15W, ?',
  month: '1–12, JAN–DEC',
  dayOfWeek: '1–7 (1 = Sun), MON-FRI, 6#3, 6L, ?',
};

export const formatLocal = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
export const formatUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface CronBuilderProps {
  value: CronSchedule;
  onChange: (value: CronSchedule) => void;
  /** Start and end of the task, to bound the preview. */
  window?: RunWindow;
  /** For tests: the moment the preview starts from. */
  now?: number;
  /** A problem the service reported for one of the fields. */
  serverErrors?: Partial<Record<CronField, string>>;
}

/** The preset fields each kind reads; the others keep what was last entered (switching kinds back). */
const KIND_FIELDS: Record<PresetKind, (keyof Preset)[]> = {
  minutes: ['every'],
  hourly: ['minute'],
  daily: ['time'],
  weekdays: ['time'],
  weekly: ['time', 'days'],
  monthly: ['time', 'monthDay'],
};

export function CronBuilder({ value, onChange, window, now, serverErrors = {} }: CronBuilderProps) {
  // The schedule (`value`) is the truth: Simple mode shows the preset it is, read afresh on every
  // render (a task loaded or reset after mount shows its own time, never a stale one), and only a
  // change the user makes there writes the schedule. A schedule no preset can show is said so and
  // left alone.
  const fromValue = scheduleToPreset(value);
  const [mode, setMode] = useState<'simple' | 'advanced'>(fromValue ? 'simple' : 'advanced');
  const [entered, setEntered] = useState<Preset>(fromValue ?? DEFAULT_PRESET);
  const shown: Preset | null = fromValue
    ? { ...entered, ...Object.fromEntries(['kind', ...KIND_FIELDS[fromValue.kind]].map((k) => [k, fromValue[k as keyof Preset]])) }
    : null;
  // The preview counts from the current time unless a `now` is given (tests); recomputed with the schedule.
  // eslint-disable-next-line react-hooks/purity
  const preview = useMemo(() => previewSchedule(value, now ?? Date.now(), window), [value, now, window]);

  const applyPreset = (next: Preset) => {
    setEntered(next);
    onChange(presetToSchedule(next));
  };

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Schedule mode"
        value={mode}
        onChange={(next) => setMode(next)}
        data={[
          { value: 'simple', label: 'Simple' },
          { value: 'advanced', label: 'Advanced (CRON fields)' },
        ]}
        w="fit-content"
      />
      {mode === 'simple' && shown ? (
        <PresetEditor preset={shown} onChange={applyPreset} />
      ) : mode === 'simple' ? (
        <Alert color="blue" variant="light" icon={<IconAlert />} title="Simple mode cannot show this schedule" data-testid="not-a-preset">
          It is kept as it is: {value.minute} {value.hour} {value.dayOfMonth} {value.month} {value.dayOfWeek}. Change it in Advanced (CRON fields).
        </Alert>
      ) : (
        <FieldsEditor value={value} onChange={onChange} errors={{ ...preview.errors, ...serverErrors }} />
      )}
      {preview.bothDays ? (
        <Alert color="yellow" variant="light" icon={<IconAlert />} title="Both day fields are set">
          Day of month and day of week are both set, so a run happens on any day matching either one. To use only one, put ? in the other.
        </Alert>
      ) : null}
      <Paper withBorder p="sm" radius="md" aria-label="Schedule preview">
        {preview.words ? (
          <Stack gap={6}>
            {/* Polite live region: changing the repeat or the time by keyboard speaks the new schedule. */}
            <Text fw={600} data-testid="schedule-words" aria-live="polite">
              {preview.words} (UTC)
            </Text>
            {preview.runs.length ? (
              <Table aria-label="Next runs" verticalSpacing={2} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Next runs (your time)</Table.Th>
                    <Table.Th>UTC</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.runs.map((t) => (
                    <Table.Tr key={t}>
                      <Table.Td>{formatLocal(t)}</Table.Td>
                      <Table.Td c="dimmed">{formatUtc(t)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text size="sm" c="orange">
                No run falls between the start and end dates.
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="red">
            Fix the schedule to see when it runs.
          </Text>
        )}
      </Paper>
    </Stack>
  );
}

function PresetEditor({ preset, onChange }: { preset: Preset; onChange: (p: Preset) => void }) {
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

function FieldsEditor({ value, onChange, errors }: { value: CronSchedule; onChange: (v: CronSchedule) => void; errors: Partial<Record<CronField, string>> }) {
  return (
    <Stack gap={4}>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
        {CRON_FIELDS.map((f) => (
          <TextInput
            key={f}
            label={LABELS[f]}
            description={HINTS[f]}
            value={value[f]}
            onChange={(e) => onChange({ ...value, [f]: e.currentTarget.value })}
            error={errors[f] ? capital(errors[f]) : undefined}
            ff="monospace"
            maxLength={100}
          />
        ))}
      </SimpleGrid>
      <Group gap={6}>
        <Badge variant="light" color="gray" tt="none">
          Quartz style: one day field is ?; day of week 1 = Sunday
        </Badge>
        <Badge variant="light" color="gray" tt="none">
          Without ?: Unix style, 0 = Sunday
        </Badge>
      </Group>
    </Stack>
  );
}

const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);
