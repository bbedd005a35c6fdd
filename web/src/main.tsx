import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadConfig } from './config/env';
import { configureFirebase, preloadFirebaseSdk, startSessionRestore } from './lib/firebase';
import { registerServiceWorker } from './lib/service-worker';
import { readStoredSession } from './lib/session-storage';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
const root = createRoot(container);

// Whether or not the config loads: the worker is what lets the next start work offline.
void registerServiceWorker();

// A signed-in visit: its session is restored while the first screen's code loads and renders, not after.
const signedIn = readStoredSession() !== null;
if (signedIn) preloadFirebaseSdk();

loadConfig()
  .then((config) => {
    configureFirebase(config);
    if (signedIn) startSessionRestore();
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    // Without the config nothing can sign in; say why in plain words instead of a blank page.
    root.render(
      <main className="startup-error" role="alert">
        <h1>The app could not start</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </main>,
    );
  });
