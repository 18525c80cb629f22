import { describe, expect, it } from 'vitest';
import { graphChoice, graphSweepGrid, graphSweepWords } from './graphChoice';
import { DEFAULT_SWEEP_PRESETS, gridPoints, type SweepGrid } from './sweep';
import { gridPresets } from './precision';

const preset = (id: string) => DEFAULT_SWEEP_PRESETS.find((p) => p.id === id)!;

describe('graphChoice', () => {
  it("takes the graph's size, no fine-tune epochs and at least one frozen epoch", () => {
    expect(graphChoice({ frozenEpochs: 0 }, { height: 24, width: 32 })).toEqual({
      weights: 'graph',
      height: 24,
      width: 32,
      fineTuneEpochs: 0,
      frozenEpochs: 1,
    });
    expect(graphChoice({ frozenEpochs: 3 }, { height: 24, width: 24 }).frozenEpochs).toBe(3);
  });
});

describe('graphSweepGrid', () => {
  const grid: SweepGrid = {
    batches: [2, 4],
    sizes: [64, 128],
    presets: [preset('head'), preset('all')],
    precisions: ['float32', 'float16'],
  };

  it("keeps the batches, measures at the graph's size, frozen presets only, without float16 storage", () => {
    const measured = graphSweepGrid(grid, 32);
    expect(measured).toEqual({ batches: [2, 4], sizes: [32], presets: [preset('head')] });
    expect(gridPoints(measured).map((p) => [p.batch, p.size, p.presetId])).toEqual([
      [2, 32, 'head'],
      [4, 32, 'head'],
    ]);
    expect(gridPresets(measured).every((p) => p.phase === 'frozen')).toBe(true);
  });

  it('measures head only when the grid has fine-tune presets alone', () => {
    expect(graphSweepGrid({ ...grid, presets: [preset('all')] }, 32).presets).toEqual([preset('head')]);
  });

  it('says what is measured and what is turned off', () => {
    expect(graphSweepWords(32, 32)).toMatch(/frozen phase only, at the graph's 32×32 input/);
  });
});
