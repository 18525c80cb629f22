import { useEffect, useState } from 'react';
import { LINK_TARGETS } from '../../core/settings/views';
import { commands } from '../../store/commands';
import { holdInView } from '../ui/goToView';
import { useLab } from '../ui/useLab';

// The link's one-time effects run once per page, though StrictMode mounts components twice in dev.
let sampleRequested = false;
let viewOpened = false;

/**
 * What the link the page was opened with did: the settings it set, each value it ignored and why. It
 * loads the built-in sample once the engine is ready (`sample=1`) and scrolls to the panel it names.
 */
export function LinkNotice() {
  const link = useLab((s) => s.workshop.link);
  const view = useLab((s) => s.workshop.view);
  const engineReady = useLab((s) => s.engine.status === 'ready');
  const datasetEmpty = useLab((s) => s.dataset.status === 'empty');
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (!link?.sample || !engineReady || !datasetEmpty || sampleRequested) return;
    sampleRequested = true;
    void commands().useSample();
  }, [link, engineReady, datasetEmpty]);

  // The link's view is shown from the start (main.tsx); a panel it names inside it is brought into view,
  // unless a reload or back has since shown another view.
  const shown = useLab((s) => s.nav.view);
  useEffect(() => {
    if (!view || viewOpened) return;
    viewOpened = true;
    const { view: holder, heading } = LINK_TARGETS[view];
    if (heading && holder === shown) holdInView(heading);
    // Once, when the page opens: later view changes are the participant's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view]);

  if (!link || dismissed) return null;
  return (
    <div className="link-notice" role="status" data-testid="link-notice">
      <p data-testid="link-applied">
        {link.applied.length > 0
          ? `This link set ${link.applied.join(', ')} (over the settings saved in this browser).`
          : 'This link set nothing.'}
      </p>
      {link.ignored.length > 0 && (
        <>
          <p>Ignored, each leaving its setting as it was:</p>
          <ul data-testid="link-ignored">
            {link.ignored.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      <button type="button" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </div>
  );
}
