// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialState } from '../../store/initial';
import { labStore } from '../../store/store';
import { SettingsPanel, type SettingsPart } from './SettingsPanel';
import { SettingsProblems } from './SettingsProblems';

const PARTS: SettingsPart[] = ['data', 'model', 'card', 'phases', 'precision'];

/** Every part of the form, as the views show them, and the problems listed under the run bar. */
function AllSettings() {
  return (
    <>
      <SettingsProblems />
      {PARTS.map((part) => (
        <SettingsPanel key={part} part={part} />
      ))}
    </>
  );
}

beforeEach(() => labStore.setState(initialState(), true));
afterEach(cleanup);

describe('the settings form', () => {
  it('writes a typed value to the settings, and lists what is out of range until it is fixed', async () => {
    const user = userEvent.setup();
    render(<AllSettings />);
    expect(screen.queryByRole('alert')).toBeNull();
    const epochs = screen.getByRole('spinbutton', { name: 'Frozen epochs' });
    await user.clear(epochs);
    await user.type(epochs, '5');
    expect(labStore.getState().config.frozenEpochs).toBe(5);

    const prefetch = screen.getByRole('spinbutton', { name: 'Prefetch (batches)' });
    await user.clear(prefetch);
    await user.type(prefetch, '40');
    expect(screen.getByRole('alert').textContent).toMatch(/prefetch/i);
    await user.clear(prefetch);
    await user.type(prefetch, '2');
    expect(labStore.getState().config.prefetch).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('locks every field while a run holds the engine', () => {
    labStore.setState((s) => ({ ...s, run: { ...s.run, status: 'running' } }));
    render(<AllSettings />);
    const groups = screen.getAllByRole('group').filter((g) => g.parentElement?.tagName === 'SECTION');
    expect(groups.length).toBeGreaterThan(3);
    for (const g of groups) expect(g.hasAttribute('disabled')).toBe(true);
    // happy-dom does not pass a fieldset's disabled down to :disabled; the field's own fieldset says it.
    const epochs = screen.getByRole('spinbutton', { name: 'Frozen epochs' });
    expect(epochs.closest('fieldset')?.hasAttribute('disabled')).toBe(true);
  });
});
