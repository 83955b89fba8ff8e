/**
 * The schedule builder: presets people can trust (every N minutes, hourly, daily, weekdays, weekly
 * on chosen days, monthly on a day or the last day) or the five CRON fields by hand, with the
 * schedule in words and its next five runs in local time and UTC. Schedules are in UTC (what the
 * service runs by); times entered here are UTC and say so.
 */
import { Alert, SegmentedControl, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { CronField, CronSchedule, RunWindow } from '../../shared/cron.ts';
import { CronFieldsEditor } from './CronFieldsEditor.tsx';
import { CronPresetEditor } from './CronPresetEditor.tsx';
import { CronPreview } from './CronPreview.tsx';
import { DEFAULT_PRESET, KIND_FIELDS, presetToSchedule, previewSchedule, scheduleToPreset, type Preset } from './cronSchedule.ts';
import { IconAlert } from './icons.tsx';

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
        <CronPresetEditor preset={shown} onChange={applyPreset} />
      ) : mode === 'simple' ? (
        <Alert color="blue" variant="light" icon={<IconAlert />} title="Simple mode cannot show this schedule" data-testid="not-a-preset">
          It is kept as it is: {value.minute} {value.hour} {value.dayOfMonth} {value.month} {value.dayOfWeek}. Change it in Advanced (CRON fields).
        </Alert>
      ) : (
        <CronFieldsEditor value={value} onChange={onChange} errors={{ ...preview.errors, ...serverErrors }} />
      )}
      {preview.bothDays ? (
        <Alert color="yellow" variant="light" icon={<IconAlert />} title="Both day fields are set">
          Day of month and day of week are both set, so a run happens on any day matching either one. To use only one, put ? in the other.
        </Alert>
      ) : null}
      <CronPreview preview={preview} />
    </Stack>
  );
}
