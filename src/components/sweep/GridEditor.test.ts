import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_PRESETS, type SweepGrid } from '../../core/sweep/sweep';
import { labStore } from '../../store/store';
import { GridEditor } from './GridEditor';
import { useGridEditor } from './useGridEditor';

const grid: SweepGrid = {
  batches: [4, 8],
  sizes: [64, 128],
  presets: DEFAULT_SWEEP_PRESETS.filter((p) => p.id === 'all'),
  precisions: ['float32', 'float16'],
};

function Editor() {
  const editor = useGridEditor(grid, () => undefined);
  return createElement(GridEditor, { grid, editor, disabled: false });
}

/** The rendered editor, and one input of it (its tag) by test id. */
function render() {
  const html = renderToStaticMarkup(createElement(Editor));
  const input = (id: string) => new RegExp(`<input[^>]*data-testid="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  return { html, input };
}

// A static render reads zustand's server snapshot, the store's initial state: the test sets that.
const initialState = labStore.getInitialState;
afterEach(() => {
  labStore.getInitialState = initialState;
});

describe('the sweep grid editor', () => {
  it("edits every axis of a preset's grid", () => {
    const { html, input } = render();
    expect(html).not.toContain('sweep-graph-note');
    expect(input('sweep-sizes')).toContain('value="64, 128"');
    expect(input('sweep-sizes')).not.toContain('disabled');
    expect(input('sweep-preset-all')).toContain('checked');
    expect(input('sweep-preset-all')).not.toContain('disabled');
  });

  it("shows a graph model's sweep as it runs: its size fixed, frozen presets only, float32, and why", () => {
    const s = labStore.getState();
    const graph = {
      ...s,
      config: { ...s.config, weights: 'graph' as const, height: 32, width: 32, fineTuneEpochs: 0 },
      weights: {
        ...s.weights,
        loaded: {
          kind: 'graph-model' as const,
          label: 'model.json',
          format: 'tfjs GraphModel',
          reason: 'REASON',
        },
      },
    };
    labStore.getInitialState = () => graph;
    const { html, input } = render();
    expect(html).toMatch(/data-testid="sweep-graph-note"[^>]*>With a graph model.*32×32 input.*REASON/);
    expect(input('sweep-sizes')).toMatch(/value="32"[^>]*disabled|disabled[^>]*value="32"/);
    // The grid names 'all layers' only: a graph measures head only, as graphSweepGrid runs it.
    expect(input('sweep-preset-head')).toContain('checked');
    expect(input('sweep-preset-all')).toContain('disabled');
    expect(input('sweep-preset-all')).not.toContain('checked');
    expect(input('sweep-precision-float16')).not.toContain('checked');
    expect(html).toMatch(/<fieldset class="sweep-presets" disabled="">\s*<legend>Precision/);
  });
});
