import { useEffect, useRef } from 'react';
import { oomMessage } from '../../core/memory/oom';
import { HalfPrecisionNote } from './HalfPrecisionNote';
import { OomCrossing } from './OomCrossing';
import { OomNumbers } from './OomNumbers';
import { RemedyItem } from './RemedyItem';
import { useOomFixes } from './useOomFixes';
import { KIND_WORDS } from './words';

/**
 * What ran out, where, and one-click fixes that continue the run. The panel comes to the participant
 * when memory runs out (scrolled into view and focused), wherever on the page they were.
 */
export function OomPanel() {
  const found = useOomFixes();
  const panel = useRef<HTMLElement>(null);
  const oom = found?.oom ?? null;
  useEffect(() => {
    if (!oom || !panel.current) return;
    panel.current.scrollIntoView({ block: 'start' });
    panel.current.focus({ preventScroll: true });
  }, [oom]);
  if (!found) return null;
  const { fixes, input, failing, crossed } = found;
  return (
    <section
      ref={panel}
      tabIndex={-1}
      className="panel oom"
      aria-labelledby="oom-title"
      data-testid="oom-panel"
    >
      <h2 id="oom-title">Out of memory: ResourceExhaustedError</h2>
      <pre className="oom-message" data-testid="oom-message">
        {oomMessage(found.oom)}
      </pre>
      <p>{KIND_WORDS[found.oom.kind]}</p>
      <OomNumbers oom={found.oom} />
      {failing && <OomCrossing failing={failing} crossed={crossed} />}
      <p>The model kept its last good weights. Pick a fix; training continues from where it failed:</p>
      <ol className="remedies" data-testid="remedies">
        {fixes.map((r) => (
          <RemedyItem key={r.remedy.id} ranked={r} />
        ))}
      </ol>
      {input && <HalfPrecisionNote input={input} />}
    </section>
  );
}
