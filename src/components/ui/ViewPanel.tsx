import type { ReactNode } from 'react';
import type { View } from '../../core/settings/views';
import { useLab } from './useLab';
import { panelId, tabId } from './ViewNav';

/**
 * One view's panels. Views not shown stay mounted (hidden), so switching views mid-run loses nothing: a
 * chart keeps its points, a half-typed field its text, an open card its state.
 */
export function ViewPanel({ view, children }: { view: View; children: ReactNode }) {
  const shown = useLab((s) => s.nav.view === view);
  return (
    <div
      role="tabpanel"
      id={panelId(view)}
      aria-labelledby={tabId(view)}
      className="view-panel column"
      hidden={!shown}
      data-testid={panelId(view)}
    >
      {children}
    </div>
  );
}
