/** The routes. Pages are loaded lazily, so each page brings only the code it uses. */
import { lazy, Suspense } from 'react';
import { createBrowserRouter, createMemoryRouter, Navigate, type RouteObject } from 'react-router';
import { LoadingState } from '../components/states.tsx';
import { NAV } from './nav.tsx';
import { NavPage, NotFound } from './NavPage.tsx';
import { RequireSession } from './RequireSession.tsx';
import { RouteError } from './RouteError.tsx';

const SignInPage = lazy(() => import('./routes/sign-in.tsx'));
const OAuthCallbackPage = lazy(() => import('./routes/oauth-callback.tsx'));
// The signed-in frame (header menus, navigation, the transfers tray) is not needed to sign in, so it
// is not part of the first load either: the sign-in page shows without it.
const AppLayout = lazy(() => import('./AppLayout.tsx').then((m) => ({ default: m.AppLayout })));

export function appRoutes(): RouteObject[] {
  return [
    {
      path: '/sign-in',
      errorElement: <RouteError />,
      element: (
        <Suspense fallback={<LoadingState minHeight={400} />}>
          <SignInPage />
        </Suspense>
      ),
    },
    {
      // The redirect URI registered for the console on a portal: <origin>/oauth-callback.
      path: '/oauth-callback',
      errorElement: <RouteError />,
      element: (
        <Suspense fallback={<LoadingState minHeight={400} />}>
          <OAuthCallbackPage />
        </Suspense>
      ),
    },
    {
      path: '/',
      errorElement: <RouteError />,
      element: (
        <RequireSession>
          <Suspense fallback={<LoadingState label="Loading the console…" minHeight={400} />}>
            <AppLayout />
          </Suspense>
        </RequireSession>
      ),
      children: [
        { index: true, element: <Navigate to="/overview" replace /> },
        // An area may have pages of its own below its path (e.g. /roles/new): its route module routes them.
        ...NAV.map((entry) => ({ path: `${entry.path}/*`, element: <NavPage entry={entry} />, errorElement: <RouteError /> })),
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

export function createAppRouter(initialEntries?: string[]) {
  return initialEntries ? createMemoryRouter(appRoutes(), { initialEntries }) : createBrowserRouter(appRoutes());
}
