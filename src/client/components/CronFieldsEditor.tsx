/** The five CRON fields typed by hand, each with its allowed values and its problem beside it. */
import { Badge, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { CRON_FIELDS, type CronField, type CronSchedule } from '../../shared/cron.ts';

const LABELS: Record<CronField, string> = { minute: 'Minute', hour: 'Hour', dayOfMonth: 'Day of month', month: 'Month', dayOfWeek: 'Day of week' };
const HINTS: Record<CronField, string> = {
  minute: '0–59, */15',
  hour: '0–23',
  dayOfMonth: '1–31, L, 15W, ?',
  month: '1–12, JAN–DEC',
  dayOfWeek: '1–7 (1 = Sun), MON-FRI, 6#3, 6L, ?',
};

export function CronFieldsEditor({
  value,
  onChange,
  errors,
}: {
  value: CronSchedule;
  onChange: (v: CronSchedule) => void;
  errors: Partial<Record<CronField, string>>;
}) {
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
