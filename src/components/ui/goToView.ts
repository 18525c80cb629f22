import type { View } from '../../core/settings/views';
import { actions } from '../../store/actions';

/**
 * Shows a view and, once it is drawn, brings the element with id `focusId` (a panel or a heading) into
 * view and focuses it: where an OOM, a fix or a link sends the participant.
 */
export function goToView(view: View, focusId?: string): void {
  actions.viewShown(view);
  if (focusId === undefined) return;
  requestAnimationFrame(() => {
    const el = document.getElementById(focusId);
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    if (!el.hasAttribute('tabindex') && el.tabIndex < 0) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  });
}

const USER_MOVES = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;

/**
 * Brings the element with id `id` into view and keeps it there while the page is still drawing (a model
 * being described, a report arriving above it push it down), for `ms` or until the person scrolls,
 * types or clicks: where a link's view= sends the participant, even before the page has settled.
 */
export function holdInView(id: string, ms = 5000): void {
  const place = () => document.getElementById(id)?.scrollIntoView({ block: 'start' });
  const resized = new ResizeObserver(place);
  const stop = () => {
    resized.disconnect();
    clearTimeout(timer);
    for (const type of USER_MOVES) window.removeEventListener(type, stop, true);
  };
  const timer = setTimeout(stop, ms);
  for (const type of USER_MOVES) window.addEventListener(type, stop, { capture: true, passive: true });
  resized.observe(document.body);
  requestAnimationFrame(place);
}
