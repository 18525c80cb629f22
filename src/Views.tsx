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
import { PanelBoundary } from './components/ui/PanelBoundary';
import { ViewPanel } from './components/ui/ViewPanel';
import { useLab } from './components/ui/useLab';
import type { ReactNode } from 'react';
import { VIEWS, type View } from './core/settings/views';

/** Views whose controls the memory column explains: it stays beside them. */
const BESIDE_MEMORY: ReadonlySet<View> = new Set(['model', 'train']);

/** Each view's panels in order, each named as its error boundary says it when it fails. */
const PANELS: Record<View, readonly (readonly [string, ReactNode])[]> = {
  data: [
    ['The data panel', <DatasetPanel key="dataset" />],
    ['The augmented preview', <PreviewGrid key="preview" />],
    ['Augmentation and split', <SettingsPanel key="settings" part="data" />],
  ],
  model: [
    ['The model settings', <SettingsPanel key="settings" part="model" />],
    ['The layer explorer', <LayersPanel key="layers" />],
  ],
  memory: [['The card', <SettingsPanel key="settings" part="card" />]],
  train: [
    ['The run panel', <RunPanel key="run" />],
    ['The OOM panel', <OomPanel key="oom" />],
    ['Loss and accuracy', <MetricsPanel key="metrics" />],
    ['The phases', <SettingsPanel key="settings" part="phases" />],
    ['The log', <LogPanel key="log" />],
  ],
  results: [
    ['Results', <ResultsPanel key="results" />],
    ['The run history', <HistoryPanel key="history" />],
  ],
  experiments: [
    ['The sweep', <SweepSection key="sweep" />],
    ['The experiments', <ExperimentsPanel key="experiments" />],
    ['The precision experiment', <SettingsPanel key="settings" part="precision" />],
  ],
  workshop: [
    ['The lesson plan', <LessonPlanPanel key="plan" />],
    ['The lessons', <LessonsPanel key="lessons" />],
    ['The class results', <ClassResultsPanel key="classes" />],
  ],
};

/**
 * The views' panels. On the model and train views the memory column (the planner's prediction per phase
 * and the live timeline) stays pinned beside the controls it explains; the memory view gives it the
 * whole width; the other views have none. Each panel has its own error boundary: one that fails to draw
 * says so in its place, and the rest of the lab goes on.
 */
export function Views() {
  const view = useLab((s) => s.nav.view);
  const memoryShown = BESIDE_MEMORY.has(view) || view === 'memory';
  return (
    <main className={`layout view-${view}${BESIDE_MEMORY.has(view) ? '' : ' single'}`}>
      <div className="column work">
        {VIEWS.map(({ id }) => (
          <ViewPanel key={id} view={id}>
            {PANELS[id].map(([name, panel]) => (
              <PanelBoundary key={name} name={name}>
                {panel}
              </PanelBoundary>
            ))}
          </ViewPanel>
        ))}
      </div>
      <aside className="column side" aria-label="Memory: predicted and measured" hidden={!memoryShown}>
        <PanelBoundary name="The planner">
          <PlannerPanel />
        </PanelBoundary>
        <PanelBoundary name="The memory timeline">
          <MemoryPanel />
        </PanelBoundary>
      </aside>
    </main>
  );
}
