import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { provideCommands } from './store/commands';
import { labStore } from './store/store';
import { LabClient } from './workers/client';
import './styles.css';

const client = new LabClient();
provideCommands(client);
void client.start();

// A read-only handle for e2e tests, compiled into dev and e2e builds only.
if (import.meta.env.DEV || import.meta.env.MODE === 'e2e') {
  (window as unknown as { __lab: unknown }).__lab = { store: labStore, commands: client };
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
