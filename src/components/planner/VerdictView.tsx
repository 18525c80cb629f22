import { useMemo } from 'react';
import { catalogEntry } from '../../core/model/models';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import {
  columnWords,
  crossingWords,
  headlineWords,
  largestWords,
  seedVerdict,
  trainableWords,
} from '../../core/oom/verdict';
import { useNumbersHidden } from '../workshop/useNumbersHidden';
import { usePlanned } from './usePlanned';

/**
 * The verdict on the current settings and card, in words: per column whether a step fits and by how
 * much, where the forward pass crosses the card, and the largest batch that fits (core/oom/verdict).
 */
export function VerdictView() {
  const { spec, config } = usePlanned();
  const hidden = useNumbersHidden();
  const verdict = useMemo(() => {
    if (!spec || config.budgetBytes === null) return null;
    const phase: TrainingPhase = config.fineTuneEpochs > 0 ? 'fine-tune' : 'frozen';
    const what = `${catalogEntry(config.model).displayName} at ${spec.height}×${spec.width}, batch ${config.batchSize}, ${trainableWords(spec, config, phase)}`;
    return { what, v: seedVerdict(spec, config, phase, config.budgetBytes) };
  }, [spec, config]);
  // In predict mode the verdict would give the fits-or-not answer away.
  if (!spec || hidden) return null;
  if (!verdict)
    return (
      <p className="hint" data-testid="verdict">
        Choose a card in the Memory view to get a verdict: fits or not, where it crosses, and the largest
        batch that fits.
      </p>
    );
  const { what, v } = verdict;
  return (
    <div
      className="verdict"
      data-testid="verdict"
      data-fits={v.columns.some((c) => c.fits) ? 'some' : 'none'}
    >
      <p>
        <strong data-testid="verdict-headline">{headlineWords(v, what)}</strong>{' '}
        <span className="label-predicted">predicted · planner, {v.phase} phase</span>
      </p>
      <ul>
        {v.columns.map((c) => (
          <li key={c.column} data-testid={`verdict-${c.column}`} data-fits={String(c.fits)}>
            {columnWords(c, v.limit)}.
          </li>
        ))}
      </ul>
      <p data-testid="verdict-crossing">{crossingWords(v)}</p>
      <p data-testid="verdict-largest">{largestWords(v)}</p>
    </div>
  );
}
