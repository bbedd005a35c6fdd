import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { VitePWA } from 'vite-plugin-pwa';

/** Where `npm start` serves /api and /config.json; the dev server forwards to it. */
const LOCAL_API = process.env.RECEIPTS_API_URL ?? 'http://127.0.0.1:8080';

/** Packages every screen needs: one long-cached chunk, fetched in parallel with the entry. */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

const config: UserConfig = {
  root: import.meta.dirname,
  plugins: [
    react(),
    // The service worker (src/sw.ts: precache, share target, push), built with Workbox. The manifest
    // is public/manifest.webmanifest, linked from index.html; src/lib/service-worker.ts registers it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      manifest: false,
      injectRegister: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Pushed through importScripts by the worker itself; the browser keeps it with the worker.
        globIgnores: ['firebase-messaging-sw.js'],
      },
    }),
  ],
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: LOCAL_API, changeOrigin: false },
      '/config.json': { target: LOCAL_API, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No source maps: the build is what is deployed, and maps would publish the app's source.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Vite 8's manualChunks: the framework is one long-cached chunk, and the rest of what the
        // first page imports ('$initial') is one chunk rather than a dozen small ones that compress
        // worse. Everything else is split by route, so a screen's libraries (Firebase, tables,
        // dialogs) load only with that screen.
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK, priority: 10 },
            { name: 'shell', tags: ['$initial'], priority: 5 },
          ],
        },
      },
    },
  },
};

/**
 * react-router's package exports always name its development build (remix-run/react-router#12532),
 * which keeps its development warnings; a production build takes the production files it ships.
 */
const ROUTER_PRODUCTION = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);
const productionRouter = [
  { find: /^react-router$/, replacement: join(ROUTER_PRODUCTION, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(ROUTER_PRODUCTION, 'dom-export.mjs') },
];

export default defineConfig(({ command, mode }) => {
  // A production build is a production build even when started from a test run (NODE_ENV=test),
  // which would otherwise bundle React's development code.
  if (command === 'build' && mode === 'production') {
    process.env.NODE_ENV = 'production';
    return { ...config, resolve: { alias: productionRouter } };
  }
  return config;
});
