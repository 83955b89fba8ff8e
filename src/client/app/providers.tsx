/** Everything the app runs inside: Mantine (light/dark), notifications, modals, the announcer and React Query. */
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode } from 'react';
import { Announcer } from '../components/Announcer.tsx';
import { CopyProvider, type CopyComponents } from '../components/CopySlot.tsx';
import { ImpactProvider, type ImpactComponents } from '../components/ImpactSlot.tsx';
import { anyUnfinishedCopy } from '../features/copy/progress.ts';
import { contrastCssVariables } from './contrast.ts';
import { theme } from './theme.ts';

export interface ProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** `test` turns off transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

/**
 * The dependencies feature's impact checks and replace dialog, shown in other features' confirm
 * steps. Loaded when a confirm step first shows one, not with the app: they bring the dependency
 * graph (IndexedDB, the extractor) that no other page needs.
 */
const IMPACT: ImpactComponents = {
  ImpactCheck: lazy(() => import('../features/dependencies/ImpactCheck.tsx').then((m) => ({ default: m.ImpactCheck }))),
  ReplaceDialog: lazy(() => import('../features/dependencies/ReplaceDialog.tsx').then((m) => ({ default: m.ReplaceDialog }))),
};

/** Content's "Copy to…" dialog, loaded when first opened, and the offer to resume a copy that stopped. */
const COPY: CopyComponents = {
  CopyToDialog: lazy(() => import('../features/copy/CopyDialog.tsx').then((m) => ({ default: m.CopyDialog }))),
  ResumeCopies: lazy(() => import('../features/copy/ResumeCopies.tsx').then((m) => ({ default: m.ResumeCopies }))),
  anyUnfinishedCopy,
};

export function Providers({ queryClient, children, env = 'default' }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={contrastCssVariables} defaultColorScheme="auto" env={env}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          {/* Below the header (global.css, .app-notifications), so a toast never covers its controls. */}
          <Notifications position="top-right" limit={4} classNames={{ root: 'app-notifications' }} />
          <Announcer />
          <ImpactProvider value={IMPACT}>
            <CopyProvider value={COPY}>{children}</CopyProvider>
          </ImpactProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
