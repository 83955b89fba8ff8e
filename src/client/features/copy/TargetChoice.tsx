/**
 * Where to copy to: another portal this tab is signed in to, or an organization signed in to here
 * for the copy (the other demo organization of the same portal, say).
 */
import { Alert, Button, Fieldset, Group, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/index.ts';
import { useSignInForCopy } from './hooks.ts';
import type { PortalConnection } from './portal.ts';

export interface TargetChoiceProps {
  targets: readonly PortalConnection[];
  chosen?: PortalConnection;
  onChoose: (target: PortalConnection) => void;
  /** A target signed in to for the copy joins the list. */
  onAdd: (target: PortalConnection) => void;
  defaultPortalUrl: string;
}

const keyOf = (t: PortalConnection) => `${t.portalUrl}|${t.username}`;

export function TargetChoice({ targets, chosen, onChoose, onAdd, defaultPortalUrl }: TargetChoiceProps) {
  const signIn = useSignInForCopy();
  const [portalUrl, setPortalUrl] = useState(defaultPortalUrl);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate(
      { portalUrl, username, password },
      {
        onSuccess: (target) => {
          setPassword('');
          onAdd(target);
        },
      },
    );
  };
  return (
    <Stack gap="sm">
      {targets.length ? (
        <Radio.Group
          label="Copy to"
          value={chosen ? keyOf(chosen) : null}
          onChange={(v) => {
            const t = targets.find((x) => keyOf(x) === v);
            if (t) onChoose(t);
          }}
        >
          <Stack gap={6} mt={6}>
            {targets.map((t) => (
              <Radio key={keyOf(t)} value={keyOf(t)} label={t.label} description={t.portalUrl} />
            ))}
          </Stack>
        </Radio.Group>
      ) : (
        <Text size="sm">The console is signed in to no other portal or organization. Sign in to the one to copy to:</Text>
      )}
      <Fieldset legend="Sign in to another organization or portal" variant="filled">
        <form onSubmit={submit} aria-label="Sign in to the target">
          <Stack gap="xs">
            <TextInput label="Portal URL" description="…/sharing/rest" value={portalUrl} onChange={(e) => setPortalUrl(e.currentTarget.value)} required />
            <Group grow align="flex-start">
              <TextInput label="Username" value={username} onChange={(e) => setUsername(e.currentTarget.value)} autoComplete="off" required />
              <PasswordInput label="Password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="off" required />
            </Group>
            {signIn.isError ? (
              <Alert color="red" variant="light" title="Sign-in refused" role="alert">
                {describeError(signIn.error)}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" variant="default" loading={signIn.isPending}>
                Sign in for this copy
              </Button>
            </Group>
          </Stack>
        </form>
      </Fieldset>
    </Stack>
  );
}
