import { Button, Center, Stack } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorState } from '../components/states.tsx';

/** Shown when a route fails to render or its code fails to load (e.g. after a new deployment). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error;
  return (
    <Center p="xl">
      <Stack maw={520} w="100%">
        <ErrorState error={message} title="This page could not be shown" />
        <Button variant="default" onClick={() => window.location.reload()}>
          Reload the console
        </Button>
      </Stack>
    </Center>
  );
}
