import { useState } from 'react';
import { writeLink } from '../../core/settings/url';
import { linkView } from '../../core/settings/views';
import type { LabState } from '../../store/types';
import { labStore } from '../../store/store';

/** The name the client gives the built-in sample data set (workers/client useSample). */
const SAMPLE_NAME = 'Built-in sample';

/** A link that puts another browser in this lab's state: settings, backend, sample, the view shown and mode. */
export function linkTo(s: LabState, page: string): string {
  const query = writeLink({
    config: s.config,
    backend: s.backendRequest,
    sample: s.dataset.status === 'ready' && s.dataset.name === SAMPLE_NAME,
    view: linkView(s.nav.view, s.workshop.view),
    mode: s.workshop.mode,
  });
  return `${page}?${query}`;
}

/**
 * "Copy link": copies the link with the clipboard API, and always shows it in a field too, so it can be
 * copied by hand where the clipboard is refused (an insecure origin, a denied permission).
 */
export function CopyLink() {
  const [shown, setShown] = useState<{ url: string; status: string; fromFile: boolean } | null>(null);
  const copy = async () => {
    const s = labStore.getState();
    const url = linkTo(s, `${location.origin}${location.pathname}`);
    // A dropped weights file or graph model stays in this browser: the link leaves it out.
    const fromFile = s.config.weights === 'file' || s.config.weights === 'graph';
    setShown({ url, status: 'Copying…', fromFile });
    try {
      await navigator.clipboard.writeText(url);
      setShown({ url, status: 'Copied.', fromFile });
    } catch {
      setShown({ url, status: 'The browser did not allow copying: copy the link from the field.', fromFile });
    }
  };
  return (
    <div className="copy-link">
      <button type="button" data-testid="copy-link" onClick={() => void copy()}>
        Copy link
      </button>
      {shown && (
        <>
          <input
            type="text"
            readOnly
            aria-label="Link to these settings"
            data-testid="copy-link-field"
            value={shown.url}
            onFocus={(e) => e.target.select()}
          />
          <span role="status" data-testid="copy-link-status">
            {shown.status}
            {shown.fromFile &&
              ' Weights or a graph model from a file cannot travel in a link: the other browser keeps its own.'}
          </span>
        </>
      )}
    </div>
  );
}
