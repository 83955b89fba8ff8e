import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { CronSchedule } from '../../shared/cron.ts';
import { renderWithProviders } from '../test/render.tsx';
import { CronBuilder } from './CronBuilder.tsx';
import { DEFAULT_PRESET, presetToSchedule, previewSchedule, scheduleToPreset, type Preset } from './cronSchedule.ts';

const NOW = Date.parse('2026-11-20T08:00:00Z'); // a Friday

describe('presets ↔ fields', () => {
  const cases: [Partial<Preset>, string][] = [
    [{ kind: 'minutes', every: 15 }, '*/15 * ? * *'],
    [{ kind: 'hourly', minute: 5 }, '5 * ? * *'],
    [{ kind: 'daily', time: '23:05' }, '5 23 ? * *'],
    [{ kind: 'weekdays', time: '07:30' }, '30 7 ? * 2-6'],
    [{ kind: 'weekly', time: '09:00', days: [6, 2, 4] }, '0 9 ? * 2,4,6'],
    [{ kind: 'monthly', time: '00:00', monthDay: 'L' }, '0 0 L * ?'],
    [{ kind: 'monthly', time: '12:15', monthDay: 15 }, '15 12 15 * ?'],
  ];
  it.each(cases)('%o → %s, and back', (p, expr) => {
    const s = presetToSchedule({ ...DEFAULT_PRESET, ...p });
    expect(Object.values(s).join(' ')).toBe(expr);
    expect(presetToSchedule(scheduleToPreset(s)!)).toEqual(s);
  });

  it('a schedule no preset stands for opens in the advanced view', () => {
    expect(scheduleToPreset({ minute: '0', hour: '9', dayOfMonth: '?', month: '*', dayOfWeek: '6#3' })).toBeNull();
    expect(scheduleToPreset({ minute: '0', hour: '9', dayOfMonth: '1', month: '1', dayOfWeek: '?' })).toBeNull();
  });

  it('previews words, the next runs and field errors', () => {
    const p = previewSchedule({ minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' }, NOW, {}, 3);
    expect(p.words).toBe('At 07:30 AM, Monday through Friday');
    expect(p.runs.map((t) => new Date(t).toISOString())).toEqual(['2026-11-23T07:30:00.000Z', '2026-11-24T07:30:00.000Z', '2026-11-25T07:30:00.000Z']);
    const bad = previewSchedule({ minute: '99', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' }, NOW);
    expect(bad).toMatchObject({ words: null, runs: [], errors: { minute: expect.stringMatching(/99 is outside 0–59/) } });
  });
});

function Harness({ initial, onValue }: { initial: CronSchedule; onValue?: (s: CronSchedule) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <CronBuilder
      value={value}
      now={NOW}
      onChange={(v) => {
        setValue(v);
        onValue?.(v);
      }}
    />
  );
}

describe('CronBuilder', () => {
  it('builds "weekdays at 07:30" and shows the words and five next runs in local time and UTC', async () => {
    let last: CronSchedule | undefined;
    const { user } = renderWithProviders(
      <Harness initial={{ minute: '0', hour: '0', dayOfMonth: '?', month: '*', dayOfWeek: '*' }} onValue={(v) => (last = v)} />,
    );
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('At 12:00 AM (UTC)');
    await user.click(screen.getByLabelText(/^Repeat/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Every weekday (Monday to Friday)' }));
    const time = screen.getByLabelText(/Time \(UTC\)/);
    // jsdom has no time picker: set the input's value as the browser would.
    fireEvent.change(time, { target: { value: '07:30' } });
    expect(last).toEqual({ minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' });
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('At 07:30 AM, Monday through Friday (UTC)');
    const rows = within(screen.getByRole('table', { name: 'Next runs' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toHaveTextContent('2026-11-23 07:30 UTC');
    expect(rows[4]).toHaveTextContent('2026-11-27 07:30 UTC');
  });

  it('advanced mode edits the five fields with inline errors and warns when both day fields are set', async () => {
    const { user } = renderWithProviders(<Harness initial={{ minute: '0', hour: '9', dayOfMonth: '?', month: '*', dayOfWeek: '6#3' }} />);
    // Not a preset: opens in the advanced view.
    const minute = screen.getByRole('textbox', { name: /^Minute/ });
    await user.clear(minute);
    await user.type(minute, '75');
    expect(await screen.findByText(/75 is outside 0–59/)).toBeInTheDocument();
    expect(screen.getByText('Fix the schedule to see when it runs.')).toBeInTheDocument();
    await user.clear(minute);
    await user.type(minute, '0');
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('on the third Friday of the month');
    const dom = screen.getByRole('textbox', { name: /^Day of month/ });
    await user.clear(dom);
    await user.type(dom, '1');
    // Neither day field is ? now: both restrict the days, and the builder says what that means.
    expect(await screen.findByText('Both day fields are set')).toBeInTheDocument();
    const dow = screen.getByRole('textbox', { name: /^Day of week/ });
    await user.clear(dow);
    await user.type(dow, '?');
    expect(screen.queryByText('Both day fields are set')).toBeNull();
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('At 09:00 AM, on day 1 of the month (UTC)');
  });

  it('Simple mode reads the schedule it is given, also one that arrives after opening, and writes nothing by itself', async () => {
    const seen: CronSchedule[] = [];
    const weekdaysAt7 = { minute: '0', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
    // A form whose task arrives after the builder mounted (a reset): the parent's value changes.
    function Later() {
      const [value, setValue] = useState<CronSchedule>({ minute: '0', hour: '0', dayOfMonth: '?', month: '*', dayOfWeek: '*' });
      return (
        <>
          <button type="button" onClick={() => setValue(weekdaysAt7)}>
            Load task
          </button>
          <CronBuilder
            value={value}
            now={NOW}
            onChange={(v) => {
              seen.push(v);
              setValue(v);
            }}
          />
        </>
      );
    }
    const { user } = renderWithProviders(<Later />);
    await user.click(screen.getByRole('button', { name: 'Load task' }));
    expect(screen.getByLabelText(/^Repeat/, { selector: 'input' })).toHaveValue('Every weekday (Monday to Friday)');
    expect(screen.getByLabelText(/Time \(UTC\)/)).toHaveValue('07:00');
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('At 07:00 AM, Monday through Friday (UTC)');
    // Switching modes back and forth changes nothing.
    await user.click(screen.getByRole('radio', { name: 'Advanced (CRON fields)' }));
    await user.click(screen.getByRole('radio', { name: 'Simple' }));
    expect(seen).toEqual([]);
    // A change the user makes keeps what it does not touch: the time stays 07:00.
    await user.click(screen.getByLabelText(/^Repeat/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Every day' }));
    expect(seen.at(-1)).toEqual({ minute: '0', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '*' });
  });

  it('a schedule Simple mode cannot show is said so there, and left alone', async () => {
    const seen: CronSchedule[] = [];
    const { user } = renderWithProviders(
      <Harness initial={{ minute: '0', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '6#3' }} onValue={(v) => seen.push(v)} />,
    );
    await user.click(screen.getByRole('radio', { name: 'Simple' }));
    expect(screen.getByTestId('not-a-preset')).toHaveTextContent('Simple mode cannot show this schedule');
    expect(screen.getByTestId('not-a-preset')).toHaveTextContent('It is kept as it is: 0 7 ? * 6#3');
    expect(screen.queryByLabelText(/^Repeat/, { selector: 'input' })).toBeNull();
    expect(seen).toEqual([]);
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('on the third Friday of the month');
  });
});
