import { BackendBadge } from './components/run/BackendBadge';
import { Notice } from './components/ui/Notice';
import { ResumeNotice } from './components/run/ResumeNotice';
import { RunBar } from './components/run/RunBar';
import { SettingsProblems } from './components/settings/SettingsProblems';
import { LinkNotice } from './components/workshop/LinkNotice';
import { WorkshopBar } from './components/workshop/WorkshopBar';
import { PanelBoundary } from './components/ui/PanelBoundary';
import { ViewNav } from './components/ui/ViewNav';
import { Views } from './Views';
import './components/ui/panels.css';

/**
 * One view per task under a run bar that keeps Train, Stop and the run's headline in reach on every
 * view, with the views' tabs above it (the view shown is in the address: back, forward and reload keep it).
 */
export function App() {
  return (
    <>
      <a
        className="skip-link"
        href="#run-bar"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('run-bar')?.focus();
        }}
      >
        Skip to the run controls
      </a>
      <header className="top">
        <h1>
          VRAM Lab <small>see, predict and beat GPU out-of-memory errors</small>
        </h1>
        <PanelBoundary name="The backend badge">
          <BackendBadge />
        </PanelBoundary>
      </header>
      <div className="pinned">
        <div className="nav-row">
          <ViewNav />
          <PanelBoundary name="The workshop bar">
            <WorkshopBar />
          </PanelBoundary>
        </div>
        <PanelBoundary name="The run bar">
          <RunBar />
        </PanelBoundary>
      </div>
      <PanelBoundary name="The link notice">
        <LinkNotice />
      </PanelBoundary>
      <SettingsProblems />
      <Notice />
      <PanelBoundary name="The resume notice">
        <ResumeNotice />
      </PanelBoundary>
      <Views />
    </>
  );
}
