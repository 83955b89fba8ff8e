/** Sign-in: portal URL (this server by default), username, password. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Box, Button, Center, Collapse, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { defaultPortalUrl, describeError } from '../../api/index.ts';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle.tsx';
import { IconAlert, IconLock } from '../../components/icons.tsx';
import { safeReturnTo } from '../../lib/returnTo.ts';
import { clearSignInNotice, lastPortalUrl, signInNotice, useSession } from '../../lib/session.ts';
import { useSignIn } from './mutations.ts';
import { signInSchema, type SignInInput, type SignInValues } from './schemas.ts';

export default function SignInPage() {
  useDocumentTitle('Sign in · Portal Admin Console');
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo')) ?? '/overview';
  const [notice] = useState(() => signInNotice());
  const initialPortal = lastPortalUrl();
  const [showPortal, setShowPortal] = useState(initialPortal !== defaultPortalUrl());
  const signIn = useSignIn();

  const form = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { portalUrl: initialPortal, username: '', password: '' },
    mode: 'onSubmit',
  });
  const { errors } = form.formState;

  if (session && !signIn.isPending && !signIn.isSuccess) return <Navigate to={returnTo} replace />;

  const onSubmit = form.handleSubmit((values) => {
    signIn.mutate(values, {
      onSuccess: () => {
        clearSignInNotice();
        navigate(returnTo, { replace: true });
      },
      onError: () => form.setValue('password', ''),
    });
  });

  const portalError = errors.portalUrl?.message;

  return (
    <Box mih="100vh" bg="var(--mantine-color-body)" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="flex-end" p="md">
        <ColorSchemeToggle />
      </Group>
      <Center style={{ flex: 1 }} px="md" pb="xl">
        <Paper component="main" withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={440}>
          <Stack gap="lg">
            <Stack gap={6} align="center">
              <Center w={48} h={48} bg="var(--mantine-primary-color-light)" c="var(--mantine-primary-color-light-color)" style={{ borderRadius: '50%' }}>
                <IconLock size={24} />
              </Center>
              <Title order={1} fz={24} ta="center">
                Sign in to Portal Admin Console
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                Use your portal account. Your session stays in this browser tab only.
              </Text>
            </Stack>

            {notice && !signIn.isError ? (
              <Alert color="yellow" variant="light" title="Session ended" role="status">
                {notice}
              </Alert>
            ) : null}
            {signIn.isError ? (
              <Alert color="red" variant="light" title="Sign-in failed" icon={<IconAlert />} role="alert">
                {describeError(signIn.error)}
              </Alert>
            ) : null}

            <form onSubmit={onSubmit} noValidate aria-label="Sign in">
              <Stack gap="md">
                <TextInput
                  label="Username"
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  data-autofocus
                  autoFocus
                  required
                  error={errors.username?.message}
                  {...form.register('username')}
                />
                <PasswordInput label="Password" autoComplete="current-password" required error={errors.password?.message} {...form.register('password')} />
                <Collapse expanded={showPortal || !!portalError}>
                  <TextInput
                    label="Portal URL"
                    description="The portal's REST address, ending with /sharing/rest"
                    inputMode="url"
                    spellCheck={false}
                    autoCapitalize="none"
                    error={portalError}
                    {...form.register('portalUrl')}
                  />
                </Collapse>
                <Button type="submit" fullWidth loading={signIn.isPending} mt="xs">
                  Sign in
                </Button>
              </Stack>
            </form>
            <Text size="xs" c="dimmed" ta="center">
              {showPortal || portalError ? 'Signing in to ' : 'Portal: '}
              <Text span ff="monospace" size="xs">
                {form.watch('portalUrl')}
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
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
