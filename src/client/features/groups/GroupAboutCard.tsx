/** What a group is: its summary, description and tags. */
import { Badge, Card, Group, Stack, Text, Title, useMatches } from '@mantine/core';
import type { GroupRecord } from '../../api/index.ts';

export function GroupAboutCard({ group }: { group: GroupRecord }) {
  // Two of the page grid's three columns where it has three (lg); a span of two in its one column
  // on a phone would add a second, implicit column and squeeze the settings card into it.
  const gridColumn = useMatches({ base: undefined, lg: 'span 2' });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="about-heading" style={{ gridColumn }}>
      <Title order={2} fz="lg" id="about-heading" mb="sm">
        About
      </Title>
      <Stack gap="sm">
        {group.snippet ? <Text fw={500}>{group.snippet}</Text> : null}
        <Text size="sm" c={group.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
          {group.description || 'No description.'}
        </Text>
        {group.tags.length ? (
          <Group gap={6} aria-label="Tags">
            {group.tags.map((t) => (
              <Badge key={t} variant="outline" color="gray" tt="none">
                {t}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
