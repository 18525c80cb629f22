import { useMemo } from 'react';
import { formatBytes } from '../../core/format';
import { hashOf } from '../../core/settings/views';
import { runHeadline } from '../../store/headlineSelectors';
import { goToView } from '../ui/goToView';
import { useLab } from '../ui/useLab';

const OUTCOME_WORDS = {
  completed: 'Last run',
  'early-stopped': 'Last run (stopped early)',
  stopped: 'Stopped run',
};

/**
 * After a run, in the run bar on every view: its validation accuracy and peak per phase, both measured
 * on the named backend, with a link to its results. The planner's prediction stands beside it (the peak readout) while the settings
 * are still the run's.
 */
export function RunHeadline() {
  const run = useLab((s) => s.run);
  const config = useLab((s) => s.config);
  const h = useMemo(() => runHeadline(run, config), [run, config]);
  if (!h) return null;
  return (
    <p className="run-headline" data-testid="run-headline">
      {OUTCOME_WORDS[h.outcome]}{' '}
      <span className="label-measured">measured · {h.backend ?? 'unknown backend'}</span>:{' '}
      <span data-testid="run-headline-accuracy">
        {h.valAccuracy === null ? (
          'no validation epoch finished'
        ) : (
          <>
            val accuracy <strong>{(h.valAccuracy * 100).toFixed(1)}%</strong>
          </>
        )}
      </span>
      {h.peaks.length > 0 && (
        <span data-testid="run-headline-peak">
          {' · peak '}
          {h.peaks.map((p, i) => (
            <span key={p.phase}>
              {i > 0 && ', '}
              {p.phase} <strong>{formatBytes(p.peakBytes)}</strong>
            </span>
          ))}
          {!h.sameSettings && <span className="muted"> (settings changed since)</span>}
        </span>
      )}{' '}
      ·{' '}
      <a
        href={hashOf('results')}
        onClick={(e) => {
          e.preventDefault();
          goToView('results', 'results-title');
        }}
      >
        results
      </a>
    </p>
  );
}
