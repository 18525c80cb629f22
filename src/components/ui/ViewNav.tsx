import { useRef, type KeyboardEvent } from 'react';
import { neighbourView, VIEWS, type View } from '../../core/settings/views';
import { actions } from '../../store/actions';
import { selectViewBadges } from '../../store/navSelectors';
import { useLab } from './useLab';
import { useShallow } from 'zustand/react/shallow';

const KEYS: Partial<Record<string, 'next' | 'previous' | 'first' | 'last'>> = {
  ArrowRight: 'next',
  ArrowLeft: 'previous',
  Home: 'first',
  End: 'last',
};

export const tabId = (view: View): string => `view-tab-${view}`;
export const panelId = (view: View): string => `view-${view}`;

/**
 * The views as tabs (the WAI-ARIA tabs pattern, activated by hand): Tab reaches the chosen one, the
 * arrow keys, Home and End move between them, Enter or Space shows one. A badge names work going on in a
 * view, or a run that ran out of memory, so it is seen from every other view.
 */
export function ViewNav() {
  const view = useLab((s) => s.nav.view);
  const badges = useLab(useShallow(selectViewBadges));
  const tabs = useRef<Partial<Record<View, HTMLButtonElement | null>>>({});

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, at: View) => {
    const where = KEYS[e.key];
    if (!where) return;
    e.preventDefault();
    tabs.current[neighbourView(at, where)]?.focus();
  };

  return (
    <nav className="view-nav" aria-label="Views">
      <div role="tablist" aria-label="Views" className="view-tabs">
        {VIEWS.map((v) => {
          const selected = v.id === view;
          const badge = badges[v.id];
          return (
            <button
              key={v.id}
              ref={(el) => {
                tabs.current[v.id] = el;
              }}
              type="button"
              role="tab"
              id={tabId(v.id)}
              aria-controls={panelId(v.id)}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              title={v.title}
              className={badge === 'out of memory' ? 'view-tab alarm' : 'view-tab'}
              data-testid={`view-tab-${v.id}`}
              onClick={() => actions.viewShown(v.id)}
              onKeyDown={(e) => onKeyDown(e, v.id)}
            >
              {v.label}
              {badge && <span className="view-badge">{badge}</span>}
            </button>
          );
        })}
      </div>
    </nav>
  );
}
