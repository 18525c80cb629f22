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
