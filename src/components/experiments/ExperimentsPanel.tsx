import './Experiments.css';
import { useMemo } from 'react';
import { experimentCards, type ExperimentCard } from '../../core/experiments/experiments';
import { poolVsLive } from '../../core/experiments/math';
import { runExperiment } from '../../store/experimentRun';
import { cardResults } from '../../store/historySelectors';
import { selectBusy, selectEngineFree, selectPlannerKey } from '../../store/selectors';
import { usePlanned } from '../planner/usePlanned';
import { useLab } from '../ui/useLab';
import { ExperimentCardView } from './ExperimentCardView';

/** Why no card can run now, or null when one can. */
function blockedBy(busy: boolean, engineFree: boolean, dataReady: boolean, active: boolean): string | null {
  if (active) return 'An experiment is running.';
  if (busy) return 'A run or sweep is going on: wait for it to end.';
  if (!engineFree) return 'Waiting for the engine.';
  if (!dataReady) return 'Load a data set first (for example the built-in sample).';
  return null;
}

/** The cards, their kept results and the experiment in progress (the store's), with the action that runs a card. */
export function useExperiments() {
  const { spec, config } = usePlanned((s) => (s.planner.key === selectPlannerKey(s) ? s.planner.spec : null));
  // The last run's samples, read only while nothing runs (the pool card waits for the run's end):
  // during a run they change several times a second, and each change would re-plan every card.
  const idleSamples = useLab((s) => (selectBusy(s) ? null : s.memory.samples));
  const backend = useLab((s) => s.engine.backend?.name ?? null);
  const busy = useLab(selectBusy);
  const engineFree = useLab(selectEngineFree);
  const dataReady = useLab((s) => s.dataset.status === 'ready');
  const kept = useLab((s) => s.history.entries);
  const loadError = useLab((s) => s.history.error);
  const { given, active, errors, started } = useLab((s) => s.experiments);

  const pool = useMemo(() => (idleSamples ? poolVsLive(idleSamples) : null), [idleSamples]);
  // While an experiment runs, the settings change under it: the cards stay as they were when it started.
  const shown = started ?? { config, spec };
  const cards = useMemo(
    () => experimentCards({ config: shown.config, spec: shown.spec, pool }),
    [shown.config, shown.spec, pool],
  );

  const resultsOf = (card: ExperimentCard) => cardResults(card, kept, backend, given[card.id]);
  const run = (card: ExperimentCard) => void runExperiment(card, shown);
  const blocked = blockedBy(busy, engineFree, dataReady, active !== null);
  return { cards, spec: shown.spec, resultsOf, run, active, errors, loadError, blocked };
}

/**
 * The remedies of OOM-CONTEXT.md as experiments: the seed case, then one card per remedy, computed on
 * the current model and settings. A card's button trains its "before" and "after" on the loaded data
 * (or takes a kept run with exactly those settings), and shows the measured peaks, step times and
 * accuracy beside the planner's prediction. The runs go to the run history like any other.
 */
export function ExperimentsPanel() {
  const { cards, spec, resultsOf, run, active, errors, loadError, blocked } = useExperiments();
  return (
    <section className="panel" aria-labelledby="experiments-title" data-testid="experiments">
      <h2 id="experiments-title">Experiments: the remedies, measured</h2>
      <p className="hint">
        Each card is computed on the current model and settings. Its button trains the “before” and the
        “after” settings one after the other on the loaded data (a kept run with exactly the same settings on
        this backend is reused), then puts your settings back. Every run is kept in the run history.
      </p>
      {loadError && <p role="alert">{loadError}</p>}
      {cards.map((card) => (
        <ExperimentCardView
          key={card.id}
          card={card}
          spec={spec}
          results={resultsOf(card)}
          running={active?.id === card.id ? active.side : null}
          blocked={blocked}
          error={errors[card.id] ?? null}
          onRun={() => run(card)}
        />
      ))}
    </section>
  );
}
