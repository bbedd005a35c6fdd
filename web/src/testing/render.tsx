import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProvider } from '../app/provider';
import { appRoutes } from '../app/router';
import type { AppConfig } from '../config/env';
import { createQueryClient } from '../lib/query-client';
import type { AppState } from '../stores/app-state';
import { fakeAuth } from './fake-firebase';

export const testConfig: AppConfig = {
  firebase: { apiKey: 'test-key', authDomain: 'localhost', projectId: 'demo-receipts' },
  authEmulatorUrl: null,
  vapidKey: null,
  adminEmail: 'admin@example.com',
};

/** The state of a signed-in user (also signed in to the fake Firebase). */
export function signedInState(overrides: Partial<AppState> = {}): Partial<AppState> {
  fakeAuth.user = { uid: 'user-1', email: overrides.userEmail ?? 'ann@example.com', displayName: 'Ann' };
  return { signedIn: true, userId: 'user-1', userEmail: 'ann@example.com', userName: 'Ann', ...overrides };
}

export interface RenderAppOptions {
  state?: Partial<AppState>;
  config?: AppConfig;
  routes?: RouteObject[];
  /** The query cache to start from (e.g. one a route loader has filled). */
  queryClient?: QueryClient;
}

/** Renders the real app routes (or the given ones) at a URL, with fresh providers. */
export function renderApp(
  url: string,
  { state, config = testConfig, routes, queryClient = createQueryClient() }: RenderAppOptions = {},
) {
  if (!state?.signedIn) fakeAuth.user = null;
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter(routes ?? appRoutes(queryClient), { initialEntries: [url] });
  const view = render(
    <AppProvider config={config} queryClient={queryClient} initialState={state}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}
