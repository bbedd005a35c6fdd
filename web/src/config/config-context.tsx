import { createContext, useContext, type ReactNode } from 'react';
import type { AppConfig } from './env';

const ConfigContext = createContext<AppConfig | null>(null);

export function ConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

/** The validated /config.json. */
export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig must be used inside <ConfigProvider>.');
  return config;
}

/** Whether this email is the admin of the config (compared without case). */
export function isAdminEmail(config: AppConfig, email: string | null | undefined): boolean {
  return Boolean(
    config.adminEmail && email && config.adminEmail.trim().toLowerCase() === email.trim().toLowerCase(),
  );
}
