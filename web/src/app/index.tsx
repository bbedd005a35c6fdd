import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import type { AppConfig } from '../config/env';
import { createQueryClient } from '../lib/query-client';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The whole app, given the validated runtime config. */
export function App({ config }: { config: AppConfig }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  return (
    <AppProvider config={config} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
