/** Overview: the organization, the signed-in member's role and what they may do. */
import { Accordion, Badge, Card, Code, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyPanel, ErrorState } from '../../components/states.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { capitalize, formatDate } from '../../lib/format.ts';
import { licenseLabel } from '../../lib/licenses.ts';
import { isDefaultAdmin } from '../../lib/privileges.ts';
import { KIND_TITLES } from '../../lib/privilegeSets.ts';
import { baseRoleLabel, needsRoleName, roleLabel } from '../../lib/roles.ts';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { groupPrivileges } from './privilegeGroups.ts';
import { LifecycleCard } from './LifecycleCard.tsx';
import { portalQuery } from '../../api/queries/portal.ts';

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
  const roles = useQuery({ ...orgRolesQuery(user.orgId), enabled: needsRoleName(user), retry: false });
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
            <span data-testid="self-role">{roleLabel(user, roles.data?.roles)}</span>
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
        {user.userLicenseTypeId ? <Field label="User type">{licenseLabel(user.userLicenseTypeId)}</Field> : null}
        <Field label="Last sign-in">{formatDate(user.lastLogin, 'Never')}</Field>
      </Stack>
    </Card>
  );
}

/** Areas start open when the list is short enough to take in at a glance. */
const OPEN_ALL_UP_TO = 30;

function PrivilegesSection() {
  const user = useCurrentUser();
  const groups = groupPrivileges(user.privileges);
  const kinds = (['general', 'administrative', 'other'] as const).filter((k) => groups.some((g) => g.kind === k));
  const openAll = user.privileges.length <= OPEN_ALL_UP_TO;
  return (
    <section aria-labelledby="privileges-heading">
      <Group justify="space-between" align="baseline" mt="xl" mb="md">
        <Title order={2} fz="lg" id="privileges-heading">
          Your privileges
        </Title>
        <Text size="sm" c="dimmed">
          {user.privileges.length} privileges in {groups.length} areas
        </Text>
      </Group>
      {groups.length === 0 ? (
        <EmptyPanel title="Your role grants no privileges" />
      ) : (
        <Stack gap="lg">
          {kinds.map((kind) => {
            const ofKind = groups.filter((g) => g.kind === kind);
            const count = ofKind.reduce((n, g) => n + g.privileges.length, 0);
            return (
              <Stack gap="xs" key={kind}>
                <Title order={3} fz="md" c="dimmed">
                  {KIND_TITLES[kind]} ({count})
                </Title>
                <Accordion multiple variant="separated" radius="md" defaultValue={openAll ? ofKind.map((g) => g.area) : []}>
                  {ofKind.map((g) => (
                    <Accordion.Item key={g.area} value={g.area}>
                      <Accordion.Control>
                        <Group gap="sm" wrap="nowrap">
                          <Text fw={600}>{g.area === 'other' ? 'Not in the catalogue' : capitalize(g.area)}</Text>
                          <Badge variant="light" color={kind === 'administrative' ? 'grape' : 'blue'} size="sm" circle={g.privileges.length < 10}>
                            {g.privileges.length}
                          </Badge>
                        </Group>
                      </Accordion.Control>
                      <Accordion.Panel>
                        <SimpleGrid
                          cols={{ base: 1, md: 2, xl: 3 }}
                          spacing="md"
                          verticalSpacing="xs"
                          component="ul"
                          style={{ listStyle: 'none', padding: 0, margin: 0 }}
                        >
                          {g.privileges.map((p) => (
                            <li key={p.id}>
                              <Text size="sm">{p.label}</Text>
                              <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                                {p.id}
                              </Text>
                            </li>
                          ))}
                        </SimpleGrid>
                      </Accordion.Panel>
                    </Accordion.Item>
                  ))}
                </Accordion>
              </Stack>
            );
          })}
        </Stack>
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
        <LifecycleCard />
      </SimpleGrid>
      <PrivilegesSection />
    </>
  );
}
