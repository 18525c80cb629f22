import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
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

// A read-only handle for e2e tests, compiled into dev and e2e builds only.
if (import.meta.env.DEV || import.meta.env.MODE === 'e2e') {
  window.__lab = { store: labStore, commands: client };
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
