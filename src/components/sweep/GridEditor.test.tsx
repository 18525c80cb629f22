// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_PRESETS, type SweepGrid } from '../../core/sweep/sweep';
import { initialState } from '../../store/initial';
import { labStore, updateConfig, updateSweepGrid } from '../../store/store';
import { useLab } from '../ui/useLab';
import { GridEditor } from './GridEditor';
import { useGridEditor } from './useGridEditor';

const grid: SweepGrid = {
  batches: [4, 8],
  sizes: [64, 128],
  presets: DEFAULT_SWEEP_PRESETS.filter((p) => p.id === 'all'),
  precisions: ['float32', 'float16'],
};

/** The editor wired to the store as the sweep panel wires it. */
function Editor() {
  const shown = useLab((s) => s.sweep.grid);
  const editor = useGridEditor(shown, updateSweepGrid);
  return <GridEditor grid={shown} editor={editor} disabled={false} />;
}

beforeEach(() => {
  labStore.setState(initialState(), true);
  updateSweepGrid(grid);
});
afterEach(cleanup);

describe('the sweep grid editor', () => {
  it('writes a list to the grid as soon as it parses, and names a token that does not', async () => {
    const user = userEvent.setup();
    render(<Editor />);
    const batches = screen.getByRole('textbox', { name: 'Batch sizes' });
    expect(batches).toHaveProperty('value', '4, 8');
    await user.clear(batches);
    await user.type(batches, '2, 16');
    expect(labStore.getState().sweep.grid.batches).toEqual([2, 16]);
    await user.type(batches, ', x');
    expect(batches.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Batch sizes: "x" is not a number.')).toBeTruthy();
    // The draft that does not parse leaves the grid as it was, so the sweep never loses its batches.
    expect(labStore.getState().sweep.grid.batches).toEqual([2, 16]);
    await user.type(batches, '{Backspace}{Backspace}{Backspace}');
    await user.tab();
    expect(batches.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText(/is not a number/)).toBeNull();
  });

  it('turns presets and precisions on and off from the keyboard, and says when none is left', async () => {
    const user = userEvent.setup();
    render(<Editor />);
    const presets = within(screen.getByRole('group', { name: 'Trainable presets' }));
    const all = presets.getByRole('checkbox', { name: /all layers/i });
    expect(all).toHaveProperty('checked', true);
    all.focus();
    await user.keyboard(' ');
    expect(labStore.getState().sweep.grid.presets).toEqual([]);
    expect(within(presets.getByRole('list')).getByRole('listitem').textContent).toMatch(/preset/i);
    const float16 = screen.getByRole('checkbox', { name: /float16/i });
    await user.click(float16);
    expect(labStore.getState().sweep.grid.precisions).toEqual(['float32']);
  });

  it("shows a graph model's sweep as it runs: its size fixed, frozen presets only, float32, and why", () => {
    updateConfig({ weights: 'graph', height: 32, width: 32, fineTuneEpochs: 0 });
    labStore.setState((s) => ({
      ...s,
      weights: {
        ...s.weights,
        loaded: { kind: 'graph-model', label: 'model.json', format: 'tfjs GraphModel', reason: 'REASON' },
      },
    }));
    render(<Editor />);
    expect(screen.getByTestId('sweep-graph-note').textContent).toMatch(
      /With a graph model.*32×32 input.*REASON/,
    );
    const sizes = screen.getByRole('textbox', { name: 'Input sizes' });
    expect([sizes.getAttribute('value'), sizes.hasAttribute('disabled')]).toEqual(['32', true]);
    // The grid names 'all layers' only: a graph measures head only, as graphSweepGrid runs it.
    const presets = within(screen.getByRole('group', { name: 'Trainable presets' }));
    expect(presets.getByRole('checkbox', { name: /head/i })).toHaveProperty('checked', true);
    const all = presets.getByRole('checkbox', { name: /all layers/i });
    expect([all.hasAttribute('disabled'), (all as HTMLInputElement).checked]).toEqual([true, false]);
    const precision = screen.getByRole('group', { name: 'Precision' });
    expect(precision.hasAttribute('disabled')).toBe(true);
    expect(within(precision).getByRole('checkbox', { name: /float16/i })).toHaveProperty('checked', false);
  });
});
