import type { KeyboardEvent } from 'react';

const CONTROL = 'input:not(:disabled), button:not(:disabled)';

/** The row's control of the same kind as `like` (a checkbox or a block's expand button), else any. */
function controlIn(row: Element, like: HTMLElement): HTMLElement | null {
  return (
    row.querySelector<HTMLElement>(like.tagName.toLowerCase() + ':not(:disabled)') ??
    row.querySelector(CONTROL)
  );
}

/**
 * Keyboard use of the layer table: Up and Down move to the row above or below (same column); on a
 * block's name, Right opens it and Left closes it; otherwise Right and Left move across the row. Space
 * toggles a checkbox and Enter or Space opens a block, as native controls do.
 */
export function onExplorerKey(e: KeyboardEvent<HTMLTableElement>): void {
  const target = e.target as HTMLElement;
  const row = target.closest('tr');
  if (!row || !target.matches(CONTROL)) return;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    const rows = Array.from(e.currentTarget.querySelectorAll('tbody tr'));
    const step = e.key === 'ArrowDown' ? 1 : -1;
    for (let i = rows.indexOf(row) + step; i >= 0 && i < rows.length; i += step) {
      const next = controlIn(rows[i]!, target);
      if (next) {
        next.focus();
        e.preventDefault();
        return;
      }
    }
    return;
  }
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  const expanded = target.getAttribute('aria-expanded');
  if (expanded !== null && (expanded === 'true') === (e.key === 'ArrowLeft')) {
    target.click();
    e.preventDefault();
    return;
  }
  const inRow = Array.from(row.querySelectorAll<HTMLElement>(CONTROL));
  const next = inRow[inRow.indexOf(target) + (e.key === 'ArrowRight' ? 1 : -1)];
  if (next) {
    next.focus();
    e.preventDefault();
  }
}
