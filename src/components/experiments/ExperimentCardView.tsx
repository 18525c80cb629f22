import { useMemo, useState } from 'react';
import type { ExperimentCard } from '../../core/experiments/experiments';
import { SEED_CONFIG } from '../../core/experiments/experiments';
import { predictPhases } from '../../core/experiments/math';
import type { ModelSpec } from '../../core/model/modelSpec';
import { validateTrainConfig } from '../../core/settings/settings';
import { commands } from '../../store/commands';
import { updateConfig } from '../../store/store';
import { useLab } from '../ui/useLab';
import { PairTable } from './PairTable';
import type { Side, SideResult } from '../../store/types';
import { formatBytes } from '../../core/format';

const TFJS_WORDS: Record<ExperimentCard['tfjs'], string> = {
  real: 'tfjs does this for real',
  partial: 'tfjs does part of this',
  cannot: 'tfjs cannot do this',
};

interface Props {
  card: ExperimentCard;
  spec: ModelSpec | null;
  results: Partial<Record<Side, SideResult>>;
  /** The side being run now, when this card's experiment is going on. */ running: Side | null;
  /** Why the button cannot run now (busy, no data, another experiment); null when it can. */ blocked:
    string | null;
  error: string | null;
  onRun(): void;
}

/** The release a card offers (clear_session), with its measured before and after. */
function ReleaseExtra({ disabled }: { disabled: boolean }) {
  const release = useLab((s) => s.memory.release);
  const r = release.result;
  return (
    <div className="row">
      <button
        type="button"
        data-testid="experiment-clear-session-release"
        disabled={disabled || release.status === 'running'}
        onClick={() => void commands().releaseAll()}
      >
        {release.status === 'running' ? 'Releasing…' : 'Release everything and measure'}
      </button>
      {r && (
        <span data-testid="experiment-clear-session-result">
          Live {formatBytes(r.before.liveBytes)} → {formatBytes(r.after.liveBytes)}
          {r.before.allocatedBytes !== undefined &&
            `, allocated incl. pool ${formatBytes(r.before.allocatedBytes)} → ${formatBytes(r.after.allocatedBytes ?? 0)}`}{' '}
          <span className="label-measured">measured · {r.backend.name}</span>
        </span>
      )}
    </div>
  );
}

/** The card's pair: the button that runs it, and the before/after table. */
function PairControls({ card, spec, results, running, blocked, onRun }: Omit<Props, 'error'>) {
  const pair = card.pair!;
  // Planning both sides is the card's costliest work: only when the model or the pair's settings change.
  // Keyed on the settings, not the pair object: the cards are rebuilt when a run ends (the pool card
  // reads its samples), which re-planned every card in one 130 ms task in a trace of a run's end. The
  // settings' check too: every card re-renders when a run starts or a data set is listed.
  const settings = JSON.stringify([pair.before, pair.after]);
  const problems = useMemo(
    () => [...validateTrainConfig(pair.before), ...validateTrainConfig(pair.after)],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [settings],
  );
  const predicted = useMemo(
    () => ({ before: predictPhases(spec, pair.before), after: predictPhases(spec, pair.after) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [spec, settings],
  );
  return (
    <>
      <div className="row">
        <button
          type="button"
          data-testid={`experiment-${card.id}-run`}
          disabled={blocked !== null || problems.length > 0}
          onClick={onRun}
        >
          {running ? `Running ${running}…` : 'Run before and after'}
        </button>
        {blocked && running === null && <small className="hint">{blocked}</small>}
      </div>
      {problems.length > 0 && <p className="hint">Cannot run with these settings: {problems.join(' ')}</p>}
      <PairTable
        id={card.id}
        pair={pair}
        predicted={predicted}
        results={results}
        keras={card.id === 'mixed-precision'}
      />
    </>
  );
}

/**
 * One remedy as an experiment: what it changes, why, the arithmetic, and its measured pair. Closed, it is
 * its title (the eleven cards open fill five screens); a running card opens, and a card stays as it was
 * left when the participant switches views.
 */
export function ExperimentCardView(props: Props) {
  const { card, running, error } = props;
  const titleId = `experiment-${card.id}-title`;
  const bodyId = `experiment-${card.id}-body`;
  const [open, setOpen] = useState(false);
  const shown = open || running !== null;
  return (
    <article
      className="experiment"
      aria-labelledby={titleId}
      data-testid={`experiment-${card.id}`}
      aria-busy={running !== null}
    >
      <h3 id={titleId}>
        <button
          type="button"
          className="disclosure"
          aria-expanded={shown}
          aria-controls={bodyId}
          data-testid={`experiment-${card.id}-toggle`}
          onClick={() => setOpen(!shown)}
        >
          {card.remedy === null ? '' : `${card.remedy}. `}
          {card.title}
        </button>
      </h3>
      <div id={bodyId} hidden={!shown}>
        <CardBody {...props} />
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </article>
  );
}

/** An open card: what it changes and why, the arithmetic, what tfjs can do of it, and its pair. */
function CardBody(props: Props) {
  const { card, running, blocked } = props;
  return (
    <>
      <p>
        <strong>Changes:</strong> {card.changes} <strong>Why it saves memory:</strong> {card.why}
      </p>
      <ul data-testid={`experiment-${card.id}-arithmetic`}>
        {card.arithmetic.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="hint" data-testid={`experiment-${card.id}-tfjs`}>
        {TFJS_WORDS[card.tfjs]}
        {card.limitation ? `: ${card.limitation}` : '.'}
      </p>
      {card.extra === 'seed' && (
        <button
          type="button"
          data-testid="experiment-seed-set"
          disabled={blocked !== null}
          onClick={() => updateConfig(SEED_CONFIG)}
        >
          Set the seed case (predict only)
        </button>
      )}
      {card.extra === 'release' && <ReleaseExtra disabled={blocked !== null} />}
      {card.pair ? <PairControls {...props} /> : <p className="hint">{card.noRun}</p>}
      <p role="status" className="hint" data-testid={`experiment-${card.id}-status`}>
        {running ? `Training the ${running} settings on the loaded data…` : ''}
      </p>
    </>
  );
}
