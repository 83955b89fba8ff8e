/** Overview: the organization, the signed-in member's role and what they may do. */
import { Badge, Card, Code, Group, List, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/states.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { capitalize, formatDate } from '../../lib/format.ts';
import { isDefaultAdmin } from '../../lib/privileges.ts';
import { baseRoleLabel, roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { groupPrivileges } from './privilegeGroups.ts';
import { portalQuery } from './queries.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right" component="div" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function OrganizationCard() {
  const portal = useQuery(portalQuery());
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="org-heading">
      <Title order={2} fz="lg" id="org-heading" mb="md">
        Organization
      </Title>
      {portal.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading organization">
          <Skeleton h={14} />
          <Skeleton h={14} />
          <Skeleton h={14} w="60%" />
        </Stack>
      ) : portal.isError ? (
        <ErrorState error={portal.error} title="Could not load the organization" onRetry={() => portal.refetch()} />
      ) : (
        <Stack gap="sm">
          <Text fw={700} fz="xl" data-testid="org-name">
            {portal.data.name}
          </Text>
          <Field label="Organization ID">
            <Code>{portal.data.id}</Code>
          </Field>
          {portal.data.urlKey ? <Field label="URL key">{portal.data.urlKey}</Field> : null}
          <Field label="Members">{typeof portal.data.memberCount === 'number' ? portal.data.memberCount.toLocaleString() : 'Not available'}</Field>
          {portal.data.currentVersion ? <Field label="Version">{portal.data.currentVersion}</Field> : null}
          {portal.data.access ? <Field label="Access">{capitalize(portal.data.access)}</Field> : null}
          {portal.data.created ? <Field label="Created">{formatDate(portal.data.created)}</Field> : null}
        </Stack>
      )}
    </Card>
  );
}

function RoleCard() {
  const user = useCurrentUser();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="role-heading">
      <Title order={2} fz="lg" id="role-heading" mb="md">
        Your account
      </Title>
      <Stack gap="sm">
        <Text fw={700} fz="xl">
          {user.fullName || user.username}
        </Text>
        <Field label="Username">{user.username}</Field>
        <Field label="Role">
          <Group gap={6} justify="flex-end">
            <span data-testid="self-role">{roleLabel(user)}</span>
            {isDefaultAdmin(user) ? (
              <Badge size="sm" variant="light">
                Default administrator
              </Badge>
            ) : null}
          </Group>
        </Field>
        {user.roleId ? (
          <>
            <Field label="Custom role ID">
              <Code data-testid="self-role-id">{user.roleId}</Code>
            </Field>
            <Field label="Based on">{baseRoleLabel(user.role)}</Field>
          </>
        ) : null}
        {user.userLicenseTypeId ? <Field label="User type">{user.userLicenseTypeId}</Field> : null}
        <Field label="Last sign-in">{formatDate(user.lastLogin, 'Never')}</Field>
      </Stack>
    </Card>
  );
}

function PrivilegesSection() {
  const user = useCurrentUser();
  const groups = groupPrivileges(user.privileges);
  return (
    <section aria-labelledby="privileges-heading">
      <Group justify="space-between" align="baseline" mt="xl" mb="md">
        <Title order={2} fz="lg" id="privileges-heading">
          Your privileges
        </Title>
        <Text size="sm" c="dimmed">
          {user.privileges.length} privileges
        </Text>
      </Group>
      {groups.length === 0 ? (
        <Text c="dimmed">Your role grants no privileges.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
          {groups.map((g) => {
            const headingId = `priv-${g.kind}-${g.area}`.replace(/\s+/g, '-');
            return (
              <Card key={`${g.kind}/${g.area}`} withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
                <Group justify="space-between" mb="xs" wrap="nowrap">
                  <Title order={3} fz="md" id={headingId}>
                    {g.area === 'other' ? 'Other' : capitalize(g.area)}
                  </Title>
                  <Badge variant="light" color={g.kind === 'administrative' ? 'grape' : g.kind === 'general' ? 'blue' : 'gray'} size="sm">
                    {g.kind === 'other' ? 'not in catalogue' : g.kind}
                  </Badge>
                </Group>
                <List size="sm" spacing={6} listStyleType="none">
                  {g.privileges.map((p) => (
                    <List.Item key={p.id}>
                      <Text size="sm">{p.label}</Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {p.id}
                      </Text>
                    </List.Item>
                  ))}
                </List>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </section>
  );
}

export default function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" description="Your organization, your role and what it lets you do." />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <OrganizationCard />
        <RoleCard />
      </SimpleGrid>
      <PrivilegesSection />
    </>
  );
}
