import { useState } from 'react';
import { guessSettingsKey, type Guess } from '../../core/run/guess';
import type { TrainConfig, TrainingPhase } from '../../core/settings/trainConfig';
import { actions } from '../../store/actions';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

interface Draft {
  kind: Guess['kind'];
  phase: TrainingPhase;
  /** The peak as typed, MB (10^6 bytes). */ mb: string;
  fits: boolean | null;
}

/** The guess a draft commits to, or null while it is incomplete. */
function guessOf(d: Draft, config: TrainConfig, phases: TrainingPhase[]): Guess | null {
  const settings = guessSettingsKey(config);
  if (d.kind === 'fits')
    return d.fits !== null && config.budgetBytes !== null ? { kind: 'fits', fits: d.fits, settings } : null;
  const mb = Number(d.mb);
  return d.mb.trim() !== '' && Number.isFinite(mb) && mb > 0 && phases.includes(d.phase)
    ? { kind: 'peak', phase: d.phase, bytes: mb * 1e6, settings }
    : null;
}

/**
 * Predict mode's question, asked before the planner shows a number: the peak of one phase's step in MB,
 * or whether a step fits on the simulated card. Committing reveals the planner; the run then measures.
 */
export function PredictGuess() {
  const config = useLab((s) => s.config);
  const phases: TrainingPhase[] = config.fineTuneEpochs > 0 ? ['frozen', 'fine-tune'] : ['frozen'];
  const [draft, setDraft] = useState<Draft>({
    kind: 'peak',
    phase: phases[phases.length - 1]!,
    mb: '',
    fits: null,
  });
  const change = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const guess = guessOf(draft, config, phases);
  return (
    <form
      className="predict-guess"
      data-testid="predict-guess"
      onSubmit={(e) => {
        e.preventDefault();
        if (guess) actions.guessCommitted(guess);
      }}
    >
      <p>
        <strong>Predict first.</strong> The planner&apos;s numbers stay hidden until you commit a guess for
        these settings.
      </p>
      <PeakChoice draft={draft} phases={phases} change={change} />
      <FitsChoice draft={draft} card={config.budgetBytes} change={change} />
      <button type="submit" disabled={!guess} data-testid="guess-commit">
        Commit my guess
      </button>
    </form>
  );
}

interface ChoiceProps {
  draft: Draft;
  change: (patch: Partial<Draft>) => void;
}

function PeakChoice({ draft, phases, change }: ChoiceProps & { phases: TrainingPhase[] }) {
  return (
    <label>
      <input
        type="radio"
        checked={draft.kind === 'peak'}
        onChange={() => change({ kind: 'peak' })}
        data-testid="guess-kind-peak"
      />{' '}
      The peak of the{' '}
      <select
        aria-label="Phase"
        data-testid="guess-phase"
        value={draft.phase}
        onChange={(e) => change({ kind: 'peak', phase: e.target.value as TrainingPhase })}
      >
        {phases.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>{' '}
      phase&apos;s step is{' '}
      <input
        type="number"
        min="0"
        step="any"
        aria-label="Guessed peak in MB"
        data-testid="guess-mb"
        value={draft.mb}
        onChange={(e) => change({ kind: 'peak', mb: e.target.value })}
      />{' '}
      MB
    </label>
  );
}

function FitsChoice({ draft, card, change }: ChoiceProps & { card: number | null }) {
  if (card === null) return <p className="hint">To guess fits or not, choose a simulated card first.</p>;
  return (
    <label>
      <input
        type="radio"
        checked={draft.kind === 'fits'}
        onChange={() => change({ kind: 'fits' })}
        data-testid="guess-kind-fits"
      />{' '}
      On the {formatBytes(card)} card, every step{' '}
      <select
        aria-label="Fits on the card"
        data-testid="guess-fits"
        value={draft.fits === null ? '' : String(draft.fits)}
        onChange={(e) =>
          change({ kind: 'fits', fits: e.target.value === '' ? null : e.target.value === 'true' })
        }
      >
        <option value="">choose…</option>
        <option value="true">fits</option>
        <option value="false">does not fit</option>
      </select>
    </label>
  );
}
