/**
 * Sign-in: the portal (this server's by default), then "Sign in with <portal>" (OAuth, the primary
 * way when the console knows its client ID there) or a built-in account's username and password.
 * `?another=1` signs in to one more portal while staying signed in to the others.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Box, Button, Center, Collapse, Divider, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDocumentTitle } from '@mantine/hooks';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { defaultPortalUrl, describeError } from '../../api/index.ts';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle.tsx';
import { IconAlert, IconLock } from '../../components/icons.tsx';
import { portalLabel, rememberedPortalApps } from '../../lib/portals.ts';
import { safeReturnTo } from '../../lib/returnTo.ts';
import { clearSignInNotice, lastPortalUrl, signInNotice, useSessionState } from '../../lib/session.ts';
import { OAuthSignIn } from './OAuthSignIn.tsx';
import { useOAuthOption } from './oauthOption.ts';
import { SignedInPortals } from './SignedInPortals.tsx';
import { useSignIn } from './mutations.ts';
import { portalUrlSchema, signInSchema, type SignInInput, type SignInValues } from './schemas.ts';

/** What the callback page hands over when a sign-in through the portal did not work. */
export interface SignInLocationState {
  oauthError?: { title: string; message: string };
}

export default function SignInPage() {
  const { session, sessions } = useSessionState();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const another = params.get('another') === '1' && !!session;
  useDocumentTitle(another ? 'Sign in to another portal · Portal Admin Console' : 'Sign in · Portal Admin Console');
  const returnTo = safeReturnTo(params.get('returnTo')) ?? '/overview';
  const [notice] = useState(() => signInNotice());
  const oauthError = (location.state as SignInLocationState | null)?.oauthError;
  const ids = { oauthError: useId(), portalList: useId() };
  const [rememberedVersion, setRememberedVersion] = useState(0);
  const signedIn = new Set(sessions.map((s) => s.portalUrl));
  const initialPortal = another ? (signedIn.has(defaultPortalUrl()) ? '' : defaultPortalUrl()) : lastPortalUrl();
  const [showPortal, setShowPortal] = useState(another || initialPortal !== defaultPortalUrl());
  const signIn = useSignIn();

  const form = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { portalUrl: initialPortal, username: '', password: '' },
    mode: 'onSubmit',
  });
  const { errors } = form.formState;
  const typedPortal = form.watch('portalUrl');
  const [settledPortal] = useDebouncedValue(typedPortal, 400);
  const parsedPortal = portalUrlSchema.safeParse(settledPortal);
  const candidate = parsedPortal.success ? parsedPortal.data : null;
  const oauth = useOAuthOption(candidate, rememberedVersion);
  const oauthPrimary = !!candidate && !!oauth.clientId;

  if (session && !another && !signIn.isPending && !signIn.isSuccess) return <Navigate to={returnTo} replace />;

  const onSubmit = form.handleSubmit((values) => {
    signIn.mutate(values, {
      onSuccess: () => {
        clearSignInNotice();
        void navigate(returnTo, { replace: true });
      },
      onError: () => form.setValue('password', ''),
    });
  });

  const portalError = errors.portalUrl?.message;
  const others = sessions.filter((s) => s.portalUrl !== session?.portalUrl);

  return (
    <Box mih="100vh" bg="var(--mantine-color-body)" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="flex-end" p="md">
        <ColorSchemeToggle />
      </Group>
      <Center style={{ flex: 1 }} px="md" pb="xl">
        <Paper component="main" withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={460}>
          <Stack gap="lg">
            <Stack gap={6} align="center">
              <Center w={48} h={48} bg="var(--mantine-primary-color-light)" c="var(--mantine-primary-color-light-color)" style={{ borderRadius: '50%' }}>
                <IconLock size={24} />
              </Center>
              <Title order={1} fz={24} ta="center">
                {another ? 'Sign in to another portal' : 'Sign in to Portal Admin Console'}
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                {another
                  ? `You stay signed in to ${portalLabel(session)}; the header switches between the portals.`
                  : 'Use your portal account. Your session stays in this browser tab only.'}
              </Text>
            </Stack>

            {notice && !signIn.isError && !oauthError ? (
              <Alert color="yellow" variant="light" title="Session ended" role="status">
                {notice}
              </Alert>
            ) : null}
            {oauthError ? (
              <Alert id={ids.oauthError} color="red" variant="light" title={oauthError.title} icon={<IconAlert />} role="alert">
                {oauthError.message}
              </Alert>
            ) : null}
            {signIn.isError ? (
              <Alert color="red" variant="light" title="Sign-in failed" icon={<IconAlert />} role="alert">
                {describeError(signIn.error)}
              </Alert>
            ) : null}

            {!another && !session && others.length ? <SignedInPortals sessions={others} returnTo={returnTo} /> : null}

            <Stack gap={6}>
              <Text size="xs" c="dimmed" ta="center">
                {showPortal || portalError ? 'Signing in to ' : 'Portal: '}
                <Text span ff="monospace" size="xs" style={{ overflowWrap: 'anywhere' }}>
                  {typedPortal || '…'}
                </Text>
                {!showPortal && !portalError ? (
                  <>
                    {' · '}
                    <Anchor component="button" type="button" size="xs" onClick={() => setShowPortal(true)}>
                      Use another portal
                    </Anchor>
                  </>
                ) : null}
              </Text>
              <Collapse expanded={showPortal || !!portalError}>
                <TextInput
                  label="Portal URL"
                  description="The portal's REST address, ending with /sharing/rest"
                  inputMode="url"
                  spellCheck={false}
                  autoCapitalize="none"
                  placeholder="https://host/portal/sharing/rest"
                  list={ids.portalList}
                  error={portalError}
                  {...form.register('portalUrl')}
                />
                <datalist id={ids.portalList}>
                  {rememberedPortalApps().map((a) => (
                    <option key={a.portalUrl} value={a.portalUrl} />
                  ))}
                </datalist>
              </Collapse>
            </Stack>

            {candidate && !oauth.loading ? (
              <OAuthSignIn
                key={candidate}
                portalUrl={candidate}
                option={oauth}
                returnTo={returnTo}
                errorId={oauthError ? ids.oauthError : undefined}
                onRemembered={() => setRememberedVersion((v) => v + 1)}
              />
            ) : null}

            {oauthPrimary ? <Divider label="or with a built-in account" labelPosition="center" /> : null}

            <form onSubmit={onSubmit} noValidate aria-label="Sign in with username and password">
              <Stack gap="md">
                <TextInput
                  label="Username"
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  data-autofocus
                  autoFocus={!oauthPrimary}
                  required
                  error={errors.username?.message}
                  {...form.register('username')}
                />
                <PasswordInput label="Password" autoComplete="current-password" required error={errors.password?.message} {...form.register('password')} />
                <Button type="submit" fullWidth loading={signIn.isPending} variant={oauthPrimary ? 'default' : 'filled'} mt="xs">
                  Sign in
                </Button>
              </Stack>
            </form>

            {another ? (
              <Text size="sm" ta="center">
                <Anchor component="button" type="button" onClick={() => navigate(returnTo)}>
                  Back to {portalLabel(session)}
                </Anchor>
              </Text>
            ) : null}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
