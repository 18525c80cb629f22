import { BackendBadge } from './components/BackendBadge';
import { DatasetPanel } from './components/DatasetPanel';
import { LayersPanel } from './components/LayersPanel';
import { LessonsPanel } from './components/LessonsPanel';
import { LogPanel } from './components/LogPanel';
import { MemoryPanel } from './components/MemoryPanel';
import { MetricsPanel } from './components/MetricsPanel';
import { Notice } from './components/Notice';
import { OomPanel } from './components/OomPanel';
import { PlannerPanel } from './components/PlannerPanel';
import { PreviewGrid } from './components/PreviewGrid';
import { RunPanel } from './components/RunPanel';
import { SettingsPanel } from './components/SettingsPanel';
import { SweepSection } from './components/SweepSection';

export function App() {
  return (
    <>
      <header className="top">
        <h1>
          VRAM Lab <small>see, predict and beat GPU out-of-memory errors</small>
        </h1>
        <BackendBadge />
      </header>
      <Notice />
      <main className="layout">
        <div className="column">
          <DatasetPanel />
          <SettingsPanel />
          <LayersPanel />
        </div>
        <div className="column wide">
          <RunPanel />
          <OomPanel />
          <PlannerPanel />
          <MemoryPanel />
          <SweepSection />
          <MetricsPanel />
          <PreviewGrid />
          <LessonsPanel />
          <LogPanel />
        </div>
      </main>
    </>
  );
}
