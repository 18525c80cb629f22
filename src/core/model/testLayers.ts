// Hand-built model specs for the planner's tests: one layer with only the fields a test names.
import type { LayerSpec } from './modelSpec';

/** A layer spec with empty shapes and weights, and what the test gives. */
export const layer = (l: Partial<LayerSpec> & Pick<LayerSpec, 'name' | 'kind'>): LayerSpec => ({
  className: l.kind,
  inputs: [],
  inputShapes: [],
  outputShape: [],
  trainableWeightSizes: [],
  fixedWeightSizes: [],
  macs: 0,
  ...l,
});
