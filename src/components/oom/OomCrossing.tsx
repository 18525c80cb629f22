import type { Plan } from '../../core/planner/planner';
import { ALLOCATION_ORDER } from '../../core/oom/remedies';
import { CATEGORY_WORDS } from './words';
import { formatBytes } from '../../core/format';

interface Props {
  /** The planner's plan of the step that failed. */ failing: Plan;
  /** The category whose bytes cross the limit, added in allocation order; null when unknown. */
  crossed: keyof Plan['categories'] | null;
}

/** The planner's prediction of the failing step, by category, and which one crosses the limit. */
export function OomCrossing({ failing, crossed }: Props) {
  return (
    <p data-testid="oom-crossing">
      The planner predicts this step at {formatBytes(failing.peakBytes)} (peak at the {failing.at}){' '}
      <span className="label-predicted">predicted · tfjs model</span>:{' '}
      {ALLOCATION_ORDER.map((k) => `${CATEGORY_WORDS[k]} ${formatBytes(failing.categories[k])}`).join(' + ')}.
      {crossed && (
        <>
          {' '}
          Added in that order, <strong>{CATEGORY_WORDS[crossed]}</strong> is what crosses the limit.
        </>
      )}
    </p>
  );
}
