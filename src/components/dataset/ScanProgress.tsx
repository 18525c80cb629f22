import { estimateRemainingMs } from '../../core/run/eta';
import type { Progress } from '../../store/types';
import { commands } from '../../store/commands';
import { ProgressBar } from '../ui/ProgressBar';

/** Listing, opening the files of, then checking the images of the folder being loaded, with a way out. */
export function ScanProgress({ name, progress }: { name: string; progress: Progress | null }) {
  return (
    <div aria-live="polite" className="scan-progress">
      {progress ? (
        <ProgressBar
          label={
            progress.phase === 'opening' ? `Opening the files of "${name}"` : `Checking images in "${name}"`
          }
          done={progress.done}
          total={progress.total}
          remainingMs={
            progress.done > 0
              ? estimateRemainingMs({
                  done: progress.done,
                  total: progress.total,
                  recentStepMs: [progress.elapsedMs / progress.done],
                })
              : null
          }
        />
      ) : (
        <p>Reading the folder…</p>
      )}
      <button type="button" data-testid="cancel-dataset" onClick={() => commands().cancelDataset()}>
        Cancel
      </button>
    </div>
  );
}
