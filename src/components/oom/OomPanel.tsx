import { useEffect } from 'react';
import { oomMessage } from '../../core/memory/oom';
import { HalfPrecisionNote } from './HalfPrecisionNote';
import { OomCrossing } from './OomCrossing';
import { OomNumbers } from './OomNumbers';
import { RemedyItem } from './RemedyItem';
import { useOomFixes } from './useOomFixes';
import { KIND_WORDS } from './words';
import { goToView } from '../ui/goToView';
import { useLab } from '../ui/useLab';

export const OOM_PANEL_ID = 'oom-panel';

/**
 * What ran out, where, and one-click fixes that continue the run. The panel comes to the participant
 * when memory runs out (its view shown, the panel scrolled into view and focused), wherever in the lab
 * they were; an experiment card that runs out keeps them on its card, whose table says so.
 */
export function OomPanel() {
  const found = useOomFixes();
  const oom = found?.oom ?? null;
  const inExperiment = useLab((s) => s.experiments.active !== null);
  useEffect(() => {
    if (oom && !inExperiment) goToView('train', OOM_PANEL_ID);
    // Only a new OOM brings the panel, not an experiment that ends afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [oom]);
  if (!found) return null;
  const { fixes, input, failing, crossed } = found;
  return (
    <section
      id={OOM_PANEL_ID}
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
