/** Everything the app runs inside: Mantine (light/dark), notifications, modals, the announcer and React Query. */
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Announcer } from '../components/Announcer.tsx';
import { ImpactProvider, type ImpactComponents } from '../components/ImpactSlot.tsx';
import { ImpactCheck } from '../features/dependencies/ImpactCheck.tsx';
import { ReplaceDialog } from '../features/dependencies/ReplaceDialog.tsx';
import { contrastCssVariables } from './contrast.ts';
import { theme } from './theme.ts';

export interface ProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** `test` turns off transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

/** The dependencies feature's impact checks and replace dialog, shown in other features' confirm steps. */
const IMPACT: ImpactComponents = { ImpactCheck, ReplaceDialog };

export function Providers({ queryClient, children, env = 'default' }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={contrastCssVariables} defaultColorScheme="auto" env={env}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" limit={4} />
          <Announcer />
          <ImpactProvider value={IMPACT}>{children}</ImpactProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
