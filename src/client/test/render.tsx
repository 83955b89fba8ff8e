/** Renders the whole console (real router, real providers) at an address, for page tests. */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { App } from '../app/App.tsx';
import { Providers } from '../app/providers.tsx';
import { createAppRouter } from '../app/router.tsx';
import { getSelf } from '../api/index.ts';
import { createQueryClient } from '../lib/queryClient.ts';
import { rememberPortalUrl, setSession } from '../lib/session.ts';
import type { ClientTestService } from './service.ts';

export function renderApp(path: string) {
  const queryClient = createQueryClient({ retry: false });
  const router = createAppRouter([path]);
  const user = userEvent.setup({ delay: null });
  const utils = render(<App queryClient={queryClient} router={router} env="test" />);
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...utils, user, queryClient, router, location };
}

/** Signs a demo account in against the test service and stores the session, as the sign-in page would. */
export async function signInAs(svc: ClientTestService, username: string) {
  const { token, expires } = await svc.tokenFor(username);
  const user = await getSelf({ portalUrl: svc.restUrl, token });
  setSession({ portalUrl: svc.restUrl, token, expires, user });
  return { token, user };
}

/** Points the sign-in page's default portal at the test service. */
export function pointSignInAt(svc: ClientTestService) {
  rememberPortalUrl(svc.restUrl);
}

/**
 * Renders one component inside the app's providers (no session), for component tests, at `/` of a
 * memory router of its own: form dialogs guard against leaving the page (useDirtyGuard's useBlocker
 * needs a data router), and links render.
 */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = createQueryClient({ retry: false });
  // Checking pointer-events walks computed styles up the tree at every click: slow on big forms in jsdom.
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  return {
    ...render(
      <Providers queryClient={queryClient} env="test">
        <RouterProvider router={router} />
      </Providers>,
    ),
    user,
    queryClient,
  };
}
