import { oomWhere } from '../../core/memory/oom';
import { hashOf } from '../../core/settings/views';
import { goToView } from '../ui/goToView';
import { OOM_PANEL_ID } from './OomPanel';
import { useOomFixes } from './useOomFixes';

/** In the run bar after an OOM: where it ran out and the top-ranked fix, linking to the OOM panel. */
export function RunBarOom() {
  const found = useOomFixes();
  if (!found) return null;
  const top = found.fixes[0];
  return (
    <p className="run-bar-oom error-text" data-testid="run-bar-oom">
      Out of memory {oomWhere(found.oom)}
      {top && ` · try ${top.remedy.title}`} ·{' '}
      <a
        href={hashOf('train')}
        onClick={(e) => {
          e.preventDefault();
          goToView('train', OOM_PANEL_ID);
        }}
      >
        fixes
      </a>
    </p>
  );
}
