import { useMemo } from 'react';
import {
  compareGuess,
  guessSettingsKey,
  type Compared,
  type GuessComparison,
  type PhasePeak,
  type RunOutcome,
} from '../../core/run/guess';
import { selectMeasuredPeaks } from '../../store/selectors';
import type { LabState } from '../../store/types';
import { planRows } from '../planner/planRows';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
const shownValue = (v: number | boolean | null) =>
  v === null ? '—' : typeof v === 'boolean' ? (v ? 'fits' : 'does not fit') : formatBytes(v);
const shownError = (e: Compared<unknown>['error']) =>
  e === null ? '—' : typeof e === 'boolean' ? (e ? 'right' : 'wrong') : pct(e);

/** The committed guess compared for the current settings, or null when there is none for them. */
function useGuessComparison(): GuessComparison | null {
  const guess = useLab((s) => s.workshop.guess);
  const spec = useLab((s) => s.planner.spec);
  const config = useLab((s) => s.config);
  const run = useLab((s) => s.run);
  const measured = useLab(selectMeasuredPeaks);
  return useMemo((): GuessComparison | null => {
    if (!guess || !spec || guess.settings !== guessSettingsKey(config)) return null;
    const planned = planRows(spec, config)
      .filter((r) => r.key !== 'frozen-cached')
      .map((r) => ({ phase: r.key, peakBytes: r.tfjs.peakBytes }));
    const sameRun = run.config !== null && guessSettingsKey(run.config) === guess.settings;
    const outcome: RunOutcome | null = !sameRun
      ? null
      : run.status === 'oom'
        ? 'oom'
        : run.status === 'completed'
          ? 'ran'
          : null;
    return compareGuess(
      guess,
      planned,
      sameRun ? measured : [],
      outcome,
      config.budgetBytes,
      outcome === 'oom' ? ranOutPeak(run) : null,
    );
  }, [guess, spec, config, run, measured]);
}

/**
 * After a guess: the guess, the planner and the measurement side by side, with the error of the guess and
 * of the planner against what the run measured (for these settings only).
 */
export function GuessResult() {
  const guess = useLab((s) => s.workshop.guess);
  const comparison = useGuessComparison();
  if (!guess || !comparison) return null;
  const what =
    guess.kind === 'peak' ? `peak of the ${guess.phase} phase's step` : 'whether every step fits on the card';
  return (
    <div className="guess-result" data-testid="guess-result">
      <table className="planner-table">
        <caption>Your guess, the planner and the run: {what}</caption>
        <thead>
          <tr>
            <th scope="col">source</th>
            <th scope="col">value</th>
            <th scope="col">error against the measurement</th>
          </tr>
        </thead>
        <tbody>
          <Row name="your guess" id="guess" c={comparison.guess} atLeast={comparison.atLeast} />
          <Row
            name="planner"
            label="predicted · tfjs"
            id="planner"
            c={comparison.planner}
            atLeast={comparison.atLeast}
          />
          <tr data-testid="guess-row-measured">
            <th scope="row">
              run <span className="label-measured">measured</span>
            </th>
            <td data-testid="guess-measured-value">
              {comparison.atLeast ? 'at least ' : ''}
              {shownValue(comparison.measured)}
            </td>
            <td>
              {comparison.measured === null
                ? 'run these settings to measure'
                : comparison.atLeast
                  ? 'the phase ran out of memory: what its failing step held (in use + requested)'
                  : ''}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** What the run's failing step held when its phase ran out, or null when the error does not say. */
function ranOutPeak(run: LabState['run']): PhasePeak | null {
  const phase = run.result?.lastPhase;
  const oom = run.oom;
  if (!oom || !phase || !Number.isFinite(oom.bytesInUse) || !Number.isFinite(oom.bytesRequested)) return null;
  return { phase, peakBytes: oom.bytesInUse + oom.bytesRequested };
}

function Row({
  name,
  label,
  id,
  c,
  atLeast,
}: {
  name: string;
  label?: string;
  id: string;
  c: Compared<number | boolean>;
  /** The measurement is a lower bound, so a percent error is an upper one. */ atLeast: boolean;
}) {
  return (
    <tr data-testid={`guess-row-${id}`}>
      <th scope="row">
        {name} {label && <span className="label-predicted">{label}</span>}
      </th>
      <td data-testid={`guess-${id}-value`}>{shownValue(c.value)}</td>
      <td data-testid={`guess-${id}-error`}>
        {shownError(c.error)}
        {atLeast && typeof c.error === 'number' ? ' or lower' : ''}
      </td>
    </tr>
  );
}
