/**
 * Browser entry: one store, the app, and the service worker. Everything else is built by
 * functions that tests call with their own instances (app.tsx, store.ts).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles/index.css';
import { App } from './app/app';
import { makeStore } from './app/store';
import { createBrowserAppUpdater, type AppUpdater } from './features/app-update';

// browser: persistence, window events, Web Locks, and the sync loop (store.ts).
const store = makeStore(undefined, { browser: true });
// Opening the offline database (creating it, on a first visit) takes the browser a few hundred
// milliseconds on a phone: begun now, it runs while React renders the first screen instead of
// after. A failure shows again at the first read, which reports it.
store.extra.db.open().catch(() => undefined);
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);

function render(updater: AppUpdater | null) {
  root.render(
    <StrictMode>
      <App store={store} updater={updater} />
    </StrictMode>,
  );
}

render(null);

// The service worker only in production builds: in development it would serve stale chunks.
if (process.env.NODE_ENV === 'production') {
  window.addEventListener('load', () => {
    void createBrowserAppUpdater(store.dispatch)
      .then(async (updater) => {
        if (!updater) return;
        render(updater);
        await updater.start();
      })
      .catch((error: unknown) => console.error('service worker registration failed', error));
  });
}
