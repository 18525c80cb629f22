import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startViewRoute } from './browser/viewRoute';
import { initialView } from './core/settings/views';
import { actions } from './store/actions';
import { provideCommands, provideModelLibrary, provideRunHistory } from './store/commands';
import { labStore } from './store/store';
import { LabClient } from './workers/client';
import { modelLibrary } from './workers/modelLibrary';
import { startRunHistory } from './workers/runHistory';
import './styles.css';

declare global {
  interface Window {
    /** The e2e and dev test handle (see below); absent from production builds. */
    __lab?: { store: typeof labStore; commands: LabClient };
  }
}

const client = new LabClient();
provideCommands(client);
provideModelLibrary(modelLibrary);
provideRunHistory(startRunHistory());
void client.start();

// The view: the address's hash on a reload, back or forward; else the link's view=; else the landing view.
const firstView = initialView(location.hash, labStore.getState().workshop.view);
const route = startViewRoute(firstView, (view) => actions.viewShown(view));
actions.viewShown(firstView);
labStore.subscribe((s, before) => {
  if (s.nav.view !== before.nav.view) route.show(s.nav.view);
});

// A read-only handle for e2e tests, compiled into dev and e2e builds only.
if (import.meta.env.DEV || import.meta.env.MODE === 'e2e') {
  window.__lab = { store: labStore, commands: client };
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
