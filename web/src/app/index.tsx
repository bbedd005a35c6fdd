import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import type { AppConfig } from '../config/env';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The whole app, given the validated runtime config. */
export function App({ config }: { config: AppConfig }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider config={config}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
