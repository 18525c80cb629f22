import { resumeLabel } from '../../core/run/resume';
import { catalogEntry } from '../../core/model/models';
import { actions } from '../../store/actions';
import { commands } from '../../store/commands';
import { selectBusy } from '../../store/selectors';
import { labStore } from '../../store/store';
import { useLab } from '../ui/useLab';
import '../ui/Notice.css';

/**
 * A run this browser saved and a reload or crash cut off: what it was, and Resume or Discard. Resume
 * needs the run's data loaded again (the browser cannot reopen a dropped folder by itself).
 */
export function ResumeNotice() {
  const saved = useLab((s) => s.savedRun);
  const busy = useLab(selectBusy);
  const summary = saved.summary;
  if (!summary || saved.status === 'discarding' || saved.status === 'none') return null;
  const { config, point, data } = summary;
  const label = resumeLabel(point);
  const resume = () => {
    actions.resumeRequested(Date.now());
    // Armed only when the loaded data are the run's; otherwise the notice above says what to do.
    if (labStore.getState().savedRun.status === 'armed') void commands().train();
  };
  return (
    <section className="notice" aria-label="Saved run" data-testid="resume-notice">
      <p>
        A run was cut off: {catalogEntry(config.model).displayName} at {config.height}×{config.width} on “
        {data.name}” ({data.images} images), saved {new Date(summary.savedAt).toLocaleString()} before {label}
        . Resuming needs the same data loaded again: the browser cannot reopen a dropped folder by itself.
      </p>
      <button type="button" onClick={resume} disabled={busy} data-testid="resume-run">
        Resume run from {label}
      </button>{' '}
      <button type="button" onClick={() => actions.savedRunDiscarded()} data-testid="discard-run">
        Discard
      </button>
    </section>
  );
}
