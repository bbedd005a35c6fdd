import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { renderApp, signedInState } from '../testing/render';
import { fakeApi } from '../testing/fake-api';
import { createQueryClient } from '../lib/query-client';
import { appRoutes } from './router';

/** The app's frame and error screen around one screen whose code cannot be fetched (as after a deploy removed it). */
function withBrokenScreen(): RouteObject[] {
  const [shell] = appRoutes(createQueryClient());
  return [
    {
      element: shell!.element,
      errorElement: shell!.errorElement,
      children: [
        {
          path: 'Broken',
          lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        },
      ],
    },
  ];
}

describe('App shell', () => {
  it('explains a screen whose code could not be fetched and offers to reload', async () => {
    renderApp('/Broken', { routes: withBrokenScreen() });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This screen could not be shown: Failed to fetch dynamically imported module',
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeEnabled();
  });

  it('shows a message in the bar at the bottom and dismisses it', async () => {
    fakeApi({ 'GET /api/listQueue': [] });
    renderApp('/', {
      state: signedInState({ message: { intent: 'success', title: 'Receipt uploaded — analysing' } }),
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Receipt uploaded — analysing');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText('Receipt uploaded — analysing')).not.toBeInTheDocument();
  });
});
