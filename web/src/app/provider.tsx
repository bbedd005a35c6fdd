import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ConfigProvider } from '../config/config-context';
import type { AppConfig } from '../config/env';
import { createQueryClient } from '../lib/query-client';
import { AppStateProvider, type AppState } from '../stores/app-state';

export interface AppProviderProps {
  config: AppConfig;
  children: ReactNode;
  /** Tests pass their own client and starting state. */
  queryClient?: QueryClient;
  initialState?: Partial<AppState>;
}

/** Everything the screens rely on: config, theme, query cache and the shared app state. */
export function AppProvider({ config, children, queryClient, initialState }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ConfigProvider config={config}>
      <FluentProvider
        theme={webLightTheme}
        style={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}
      >
        <QueryClientProvider client={client}>
          <AppStateProvider initial={initialState}>{children}</AppStateProvider>
        </QueryClientProvider>
      </FluentProvider>
    </ConfigProvider>
  );
}
