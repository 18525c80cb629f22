import { fixClaim, type RankedRemedy } from '../../core/oom/remedies';
import { commands } from '../../store/commands';
import { formatBytes } from '../../core/format';
import { goToView } from '../ui/goToView';

/** One fix: the button, why it helps, and the planner's peak for exactly the changed settings. */
export function RemedyItem({ ranked: r }: { ranked: RankedRemedy }) {
  const { remedy, predictedBytes, fits, limit } = r;
  const card = Number.isFinite(limit) ? formatBytes(limit) : null;
  return (
    <li data-testid={`ranked-${remedy.id}`} data-fits={fits === null ? 'unknown' : String(fits)}>
      <button
        type="button"
        data-testid={`remedy-${remedy.id}`}
        onClick={() => {
          void commands().applyRemedy(remedy, fixClaim(r));
          // The OOM panel goes once the run continues: land on the run it fixes, where the claim is measured.
          goToView('train', 'run-panel');
        }}
      >
        {remedy.title}
      </button>
      <small className="hint">
        {remedy.why}{' '}
        {predictedBytes === null ? (
          <span className="label-predicted" data-testid={`remedy-${remedy.id}-predicted`}>
            not predicted yet: the planner needs the model described at {r.config.height}×{r.config.width}
          </span>
        ) : (
          <span data-testid={`remedy-${remedy.id}-predicted`}>
            Step peak then {formatBytes(predictedBytes)}
            {card &&
              (fits
                ? `, fits the ${card} card`
                : `, over the ${card} card by ${formatBytes(predictedBytes - limit)}`)}{' '}
            <span className="label-predicted">predicted · tfjs model</span>
          </span>
        )}
      </small>
    </li>
  );
}
