// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VIEWS } from '../../core/settings/views';
import { initialState } from '../../store/initial';
import { labStore } from '../../store/store';
import { ViewNav } from './ViewNav';

beforeEach(() => labStore.setState(initialState(), true));
afterEach(cleanup);

const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('the view tabs', () => {
  it('are one tab list with the view shown selected and the only one Tab reaches', () => {
    render(<ViewNav />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(VIEWS.map((v) => v.label));
    const selected = tabs.filter((t) => t.getAttribute('aria-selected') === 'true');
    expect(selected.map((t) => t.textContent)).toEqual(['Data']);
    expect(tabs.filter((t) => t.tabIndex === 0)).toEqual(selected);
  });

  it('move focus with the arrow keys (wrapping round), Home and End, and show a view only on Enter or Space', async () => {
    const user = userEvent.setup();
    render(<ViewNav />);
    await user.tab();
    expect(document.activeElement).toBe(tab('Data'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Model'));
    expect(labStore.getState().nav.view).toBe('data');
    await user.keyboard('{Enter}');
    expect(labStore.getState().nav.view).toBe('model');
    expect(tab('Model').getAttribute('aria-selected')).toBe('true');
    expect(tab('Data').getAttribute('aria-selected')).toBe('false');

    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tab('Workshop'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Data'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(tab('Workshop'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tab('Data'));
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight} ');
    expect(labStore.getState().nav.view).toBe('train');
    expect(tab('Train').tabIndex).toBe(0);
    expect(tab('Model').tabIndex).toBe(-1);
  });

  it('name work going on in a view, and an out-of-memory run, on its tab', () => {
    labStore.setState((s) => ({ ...s, run: { ...s.run, status: 'oom' } }));
    render(<ViewNav />);
    expect(tab('Train').textContent).toBe('Trainout of memory');
    expect(tab('Train').className).toContain('alarm');
  });
});
