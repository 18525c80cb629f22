import './Experiments.css';
import { useEffect, useMemo, useState } from 'react';
import { experimentCards, type ExperimentCard, type ExperimentId } from '../../core/experiments/experiments';
import { matchingRun, poolVsLive } from '../../core/experiments/math';
import type { HistoryEntry } from '../../core/run/history';
import { selectBusy, selectEngineFree, selectPlannerKey } from '../../store/selectors';
import { usePlanned } from '../planner/usePlanned';
import { useLab } from '../ui/useLab';
import { allRuns } from '../workshop/historyDb';
import { ExperimentCardView } from './ExperimentCardView';
import { runPair, type Side, type SideResult } from './runPair';
import { errorMessage } from '../../core/format';

/** Why no card can run now, or null when one can. */
function blockedBy(busy: boolean, engineFree: boolean, dataReady: boolean, active: boolean): string | null {
  if (active) return 'An experiment is running.';
  if (busy) return 'A run or sweep is going on: wait for it to end.';
  if (!engineFree) return 'Waiting for the engine.';
  if (!dataReady) return 'Load a data set first (for example the built-in sample).';
  return null;
}

type Results = Partial<Record<Side, SideResult>>;

/**
 * A card's results: the kept run with each side's exact settings on this backend; what the card's last
 * experiment gave when it is that run, else marked as reused from the history (run before this view ran
 * the card: in another session, or with the same settings by hand).
 */
function resultsFor(
  card: ExperimentCard,
  kept: readonly HistoryEntry[],
  backend: string | null,
  given: Results,
): Results {
  const out: Results = {};
  if (!card.pair) return out;
  for (const side of ['before', 'after'] as const) {
    const entry = matchingRun(kept, card.pair[side], backend);
    const last = given[side];
    if (entry) out[side] = last?.entry === entry ? last : { entry, reused: true };
  }
  return out;
}

/** The cards, their kept results and the experiment in progress, with the action that runs a card. */
export function useExperiments() {
  const { spec, config } = usePlanned((s) => (s.planner.key === selectPlannerKey(s) ? s.planner.spec : null));
  // The last run's samples, read only while nothing runs (the pool card waits for the run's end):
  // during a run they change several times a second, and each change would re-plan every card.
  const idleSamples = useLab((s) => (selectBusy(s) ? null : s.memory.samples));
  const backend = useLab((s) => s.engine.backend?.name ?? null);
  const busy = useLab(selectBusy);
  const engineFree = useLab(selectEngineFree);
  const dataReady = useLab((s) => s.dataset.status === 'ready');
  const [kept, setKept] = useState<HistoryEntry[]>([]);
  // What each card's last experiment gave, side by side (trained now, or reused from the history).
  const [given, setGiven] = useState<Partial<Record<ExperimentId, Results>>>({});
  const [active, setActive] = useState<{ id: ExperimentId; side: Side } | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ExperimentId, string>>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  // While an experiment runs, the settings change under it: the cards stay as they were when it started.
  const [started, setStarted] = useState<{ config: typeof config; spec: typeof spec } | null>(null);

  useEffect(() => {
    allRuns().then(
      (list) => setKept((k) => [...list, ...k]),
      (e: unknown) => setLoadError(`The run history could not be read: ${String(e)}`),
    );
  }, []);

  const pool = useMemo(() => (idleSamples ? poolVsLive(idleSamples) : null), [idleSamples]);
  const shown = started ?? { config, spec };
  const cards = useMemo(
    () => experimentCards({ config: shown.config, spec: shown.spec, pool }),
    [shown.config, shown.spec, pool],
  );

  const resultsOf = (card: ExperimentCard) => resultsFor(card, kept, backend, given[card.id] ?? {});

  const run = (card: ExperimentCard) => {
    if (!card.pair) return;
    setErrors((e) => ({ ...e, [card.id]: undefined }));
    setStarted(shown);
    setGiven((g) => ({ ...g, [card.id]: {} }));
    runPair(
      card.pair,
      kept,
      (side) => setActive({ id: card.id, side }),
      (side, result) => {
        setGiven((g) => ({ ...g, [card.id]: { ...g[card.id], [side]: result } }));
        if (!result.reused) setKept((k) => [...k, result.entry]);
      },
    )
      .catch((e: unknown) => setErrors((x) => ({ ...x, [card.id]: errorMessage(e) })))
      .finally(() => {
        setActive(null);
        setStarted(null);
      });
  };

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
