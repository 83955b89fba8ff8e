import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Providers } from './providers.tsx';
import { createAppRouter } from './router.tsx';

export interface AppProps {
  queryClient: QueryClient;
  /** A router made by createAppRouter (tests pass a memory router); the browser's by default. */
  router?: ReturnType<typeof createAppRouter>;
  env?: 'default' | 'test';
}

export function App({ queryClient, router: given, env }: AppProps) {
  const [router] = useState(() => given ?? createAppRouter());
  return (
    <Providers queryClient={queryClient} env={env}>
      <RouterProvider router={router} />
    </Providers>
  );
}
