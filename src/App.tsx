import { BackendBadge } from './components/run/BackendBadge';
import { ClassResultsPanel } from './components/classResults/ClassResultsPanel';
import { DatasetPanel } from './components/dataset/DatasetPanel';
import { ExperimentsPanel } from './components/experiments/ExperimentsPanel';
import { LayersPanel } from './components/explorer/LayersPanel';
import { LessonsPanel } from './components/oom/LessonsPanel';
import { LogPanel } from './components/run/LogPanel';
import { MemoryPanel } from './components/memory/MemoryPanel';
import { MetricsPanel } from './components/run/MetricsPanel';
import { Notice } from './components/ui/Notice';
import { OomPanel } from './components/oom/OomPanel';
import { PlannerPanel } from './components/planner/PlannerPanel';
import { PreviewGrid } from './components/dataset/PreviewGrid';
import { ResultsPanel } from './components/results/ResultsPanel';
import { ResumeNotice } from './components/run/ResumeNotice';
import { RunBar } from './components/run/RunBar';
import { RunPanel } from './components/run/RunPanel';
import { SettingsPanel } from './components/settings/SettingsPanel';
import { SweepSection } from './components/sweep/SweepSection';
import { HistoryPanel } from './components/workshop/HistoryPanel';
import { WorkshopBar } from './components/workshop/WorkshopBar';
import './components/ui/panels.css';

/**
 * Cause and effect on one screen: the work area (data, settings, layers, runs, sweeps) scrolls on the
 * left while the memory view (the planner's prediction per phase and the live timeline) stays pinned on
 * the right, under a run bar that keeps Train and Stop in reach.
 */
export function App() {
  return (
    <>
      <a className="skip-link" href="#run-bar">
        Skip to the run controls
      </a>
      <header className="top">
        <h1>
          VRAM Lab <small>see, predict and beat GPU out-of-memory errors</small>
        </h1>
        <BackendBadge />
      </header>
      <RunBar />
      <Notice />
      <ResumeNotice />
      <WorkshopBar />
      <main className="layout">
        <div className="column work">
          <DatasetPanel />
          <SettingsPanel />
          <LayersPanel />
          <RunPanel />
          <OomPanel />
          <SweepSection />
          <ExperimentsPanel />
          <MetricsPanel />
          <ResultsPanel />
          <PreviewGrid />
          <HistoryPanel />
          <ClassResultsPanel />
          <LessonsPanel />
          <LogPanel />
        </div>
        <aside className="column side" aria-label="Memory: predicted and measured">
          <PlannerPanel />
          <MemoryPanel />
        </aside>
      </main>
    </>
  );
}
