import { ClassResultsPanel } from './components/classResults/ClassResultsPanel';
import { DatasetPanel } from './components/dataset/DatasetPanel';
import { ExperimentsPanel } from './components/experiments/ExperimentsPanel';
import { LayersPanel } from './components/explorer/LayersPanel';
import { LessonsPanel } from './components/oom/LessonsPanel';
import { LogPanel } from './components/run/LogPanel';
import { MemoryPanel } from './components/memory/MemoryPanel';
import { MetricsPanel } from './components/run/MetricsPanel';
import { OomPanel } from './components/oom/OomPanel';
import { PlannerPanel } from './components/planner/PlannerPanel';
import { PreviewGrid } from './components/dataset/PreviewGrid';
import { ResultsPanel } from './components/results/ResultsPanel';
import { RunPanel } from './components/run/RunPanel';
import { SettingsPanel } from './components/settings/SettingsPanel';
import { SweepSection } from './components/sweep/SweepSection';
import { HistoryPanel } from './components/workshop/HistoryPanel';
import { LessonPlanPanel } from './components/workshop/LessonPlanPanel';
import { ViewPanel } from './components/ui/ViewPanel';
import { useLab } from './components/ui/useLab';
import type { View } from './core/settings/views';

/** Views whose controls the memory column explains: it stays beside them. */
const BESIDE_MEMORY: ReadonlySet<View> = new Set(['model', 'train']);

/**
 * The views' panels. On the model and train views the memory column (the planner's prediction per phase
 * and the live timeline) stays pinned beside the controls it explains; the memory view gives it the
 * whole width; the other views have none.
 */
export function Views() {
  const view = useLab((s) => s.nav.view);
  const memoryShown = BESIDE_MEMORY.has(view) || view === 'memory';
  return (
    <main className={`layout view-${view}${BESIDE_MEMORY.has(view) ? '' : ' single'}`}>
      <div className="column work">
        <ViewPanel view="data">
          <DatasetPanel />
          <PreviewGrid />
          <SettingsPanel part="data" />
        </ViewPanel>
        <ViewPanel view="model">
          <SettingsPanel part="model" />
          <LayersPanel />
        </ViewPanel>
        <ViewPanel view="memory">
          <SettingsPanel part="card" />
        </ViewPanel>
        <ViewPanel view="train">
          <RunPanel />
          <OomPanel />
          <MetricsPanel />
          <SettingsPanel part="phases" />
          <LogPanel />
        </ViewPanel>
        <ViewPanel view="results">
          <ResultsPanel />
          <HistoryPanel />
        </ViewPanel>
        <ViewPanel view="experiments">
          <SweepSection />
          <ExperimentsPanel />
          <SettingsPanel part="precision" />
        </ViewPanel>
        <ViewPanel view="workshop">
          <LessonPlanPanel />
          <LessonsPanel />
          <ClassResultsPanel />
        </ViewPanel>
      </div>
      <aside className="column side" aria-label="Memory: predicted and measured" hidden={!memoryShown}>
        <PlannerPanel />
        <MemoryPanel />
      </aside>
    </main>
  );
}
