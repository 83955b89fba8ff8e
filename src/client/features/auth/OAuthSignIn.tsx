/**
 * "Sign in with <portal>": OAuth 2.0 through the portal's own sign-in page. When no client ID is
 * known for the portal, the administrator registers the console there once and enters the app's
 * client ID, which this browser then remembers for that portal.
 */
import { Alert, Anchor, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import { describeError } from '../../api/index.ts';
import { IconAlert, IconBuilding, IconCheck } from '../../components/icons.tsx';
import { beginOAuthSignIn } from '../../lib/oauth.ts';
import { oauthRedirectUri, portalHost, rememberPortalApp } from '../../lib/portals.ts';
import type { OAuthOption } from './oauthOption.ts';
import { clientIdSchema } from './schemas.ts';

/** Leaving for the portal's page; tests replace it (jsdom cannot navigate). */
export const browser = {
  open(url: string): void {
    window.location.assign(url);
  },
};

export interface OAuthSignInProps {
  portalUrl: string;
  option: OAuthOption;
  returnTo: string;
  /** id of the message saying why the last attempt failed, if shown. */
  errorId?: string;
  /** A client ID was stored for the portal. */
  onRemembered: () => void;
}

export function OAuthSignIn({ portalUrl, option, returnTo, errorId, onRemembered }: OAuthSignInProps) {
  const ids = { hint: useId(), heading: useId(), startError: useId() };
  const [editing, setEditing] = useState<boolean | null>(null);
  const [clientId, setClientId] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const redirectUri = oauthRedirectUri();
  const host = portalHost(portalUrl);
  // Another portal without a client ID: the setup is the way in, so it is open from the start.
  const setupOpen = editing ?? (!option.clientId && !option.isConsolePortal);
  const describedBy = [startError ? ids.startError : null, errorId ?? null].filter(Boolean).join(' ') || undefined;

  const start = async (id: string, remember: boolean) => {
    setStarting(true);
    setStartError(null);
    try {
      const url = await beginOAuthSignIn({ portalUrl, clientId: id, returnTo });
      if (remember) {
        rememberPortalApp(portalUrl, id);
        onRemembered();
      }
      browser.open(url);
    } catch (err) {
      setStartError(`The sign-in could not be started: ${describeError(err)}`);
      setStarting(false);
    }
  };

  const failure = startError ? (
    <Alert id={ids.startError} color="red" variant="light" icon={<IconAlert />} role="alert">
      {startError}
    </Alert>
  ) : null;

  if (option.clientId && !setupOpen) {
    return (
      <Stack gap={6}>
        {failure}
        <Button
          fullWidth
          size="md"
          leftSection={<IconBuilding size={18} />}
          loading={starting}
          onClick={() => void start(option.clientId!, false)}
          aria-describedby={describedBy}
        >
          Sign in with {option.label}
        </Button>
        <Text size="xs" c="dimmed" ta="center" id={ids.hint}>
          You continue on {host}’s own sign-in page (your organization’s single sign-on included); the console never sees your password.
          {option.source === 'remembered' ? (
            <>
              {' '}
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={() => {
                  setClientId(option.clientId ?? '');
                  setEditing(true);
                }}
              >
                Change client ID
              </Anchor>
            </>
          ) : null}
        </Text>
      </Stack>
    );
  }

  if (!setupOpen) {
    return (
      <Text size="xs" c="dimmed" ta="center">
        <Anchor component="button" type="button" size="xs" onClick={() => setEditing(true)}>
          Set up sign-in with {option.label} (OAuth)
        </Anchor>
      </Text>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = clientIdSchema.safeParse(clientId);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Enter the client ID');
      return;
    }
    setFieldError(null);
    void start(parsed.data, true);
  };

  return (
    <Paper component="section" withBorder radius="md" p="md" aria-labelledby={ids.heading}>
      <form onSubmit={submit} noValidate aria-labelledby={ids.heading}>
        <Stack gap="sm">
          <Title order={2} fz="md" id={ids.heading}>
            Sign in with {option.label}
          </Title>
          <Text size="sm">
            Register this console once on {host} as an application (an Application item’s Settings → Register, or OAuth developer credentials) with this
            redirect URI, then enter its client ID. This browser remembers it for this portal.
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput label="Redirect URI" value={redirectUri} readOnly spellCheck={false} style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={redirectUri}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  onClick={copy}
                  leftSection={copied ? <IconCheck size={14} /> : undefined}
                  aria-label={copied ? 'Redirect URI copied' : 'Copy redirect URI'}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          {failure}
          <TextInput
            label="Client ID"
            description="The registered app's client ID (letters and digits)"
            value={clientId}
            onChange={(e) => setClientId(e.currentTarget.value)}
            error={fieldError}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            required
          />
          <Group gap="xs">
            <Button type="submit" loading={starting} leftSection={<IconBuilding size={18} />} aria-describedby={describedBy}>
              Sign in with {option.label}
            </Button>
            {option.clientId || option.isConsolePortal ? (
              <Button variant="subtle" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
