import { describe, expect, it } from 'vitest';
import type { LayerSpec, ModelSpec } from '../model/modelSpec';
import { planInput } from './planner';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import {
  fineTunedBackbone,
  resolveTrainable,
  trainableLabel,
  trainableProblem,
  validateTrainable,
} from '../settings/trainable';

const layer = (name: string): LayerSpec => ({
  name,
  className: 'Conv2D',
  kind: 'conv2d',
  outputShape: [4, 4, 8],
  inputs: [],
  inputShapes: [],
  trainableWeightSizes: [8],
  fixedWeightSizes: [],
  macs: 0,
});
const NAMES = [
  'input_layer',
  'stem_conv',
  'block1a_project_conv',
  'block2a_expand_conv',
  'block2a_project_conv',
  'block2b_expand_conv',
  'top_conv',
  'avg_pool',
  'predictions',
];
const SPEC: ModelSpec = {
  name: 'toy',
  height: 32,
  width: 32,
  layers: NAMES.map(layer),
  backboneLayerCount: 7,
};
const HEAD = ['avg_pool', 'predictions'];

describe('the one trainable set', () => {
  it('trains only the head in the frozen phase, whatever the rule', () => {
    for (const rule of [{ kind: 'all' }, { kind: 'last', n: 3 }] as const)
      expect([...resolveTrainable(SPEC, 'frozen', rule)]).toEqual(HEAD);
  });

  it('resolves each shortcut on the model', () => {
    expect([...resolveTrainable(SPEC, 'fine-tune', { kind: 'last', n: 2 })]).toEqual([
      'block2b_expand_conv',
      'top_conv',
      ...HEAD,
    ]);
    expect(resolveTrainable(SPEC, 'fine-tune', { kind: 'all' }).size).toBe(NAMES.length);
    expect([...resolveTrainable(SPEC, 'fine-tune', { kind: 'head' })]).toEqual(HEAD);
    expect(fineTunedBackbone(SPEC, { kind: 'from-block', block: 'block2a' })).toEqual([
      'block2a_expand_conv',
      'block2a_project_conv',
      'block2b_expand_conv',
      'top_conv',
    ]);
    expect(fineTunedBackbone(SPEC, { kind: 'layers', names: ['top_conv', 'stem_conv', 'nope'] })).toEqual([
      'stem_conv',
      'top_conv',
    ]);
  });

  it('never counts past the model: the last 1000 layers of a 7-layer backbone are all but the input', () => {
    expect(fineTunedBackbone(SPEC, { kind: 'last', n: 1000 })).toEqual(NAMES.slice(1, 7));
  });

  it('names what does not fit the model instead of failing', () => {
    expect(trainableProblem(SPEC, { kind: 'from-block', block: 'block9a' })).toMatch(/no block 'block9a'/);
    expect([...resolveTrainable(SPEC, 'fine-tune', { kind: 'from-block', block: 'block9a' })]).toEqual(HEAD);
    expect(trainableProblem(SPEC, { kind: 'layers', names: ['ghost'] })).toMatch(/no layer 'ghost'/);
    expect(trainableProblem(SPEC, { kind: 'all' })).toBeNull();
  });

  it('labels and validates rules', () => {
    expect(trainableLabel({ kind: 'layers', names: ['a', 'b'] })).toBe('2 chosen layers');
    expect(trainableLabel({ kind: 'from-block', block: 'block6a' })).toBe('from block6a');
    expect(validateTrainable({ kind: 'last', n: -1 })).toHaveLength(1);
    expect(validateTrainable({ kind: 'last', n: 2.5 })).toHaveLength(1);
    expect(validateTrainable({ kind: 'from-block', block: ' ' })).toHaveLength(1);
    expect(validateTrainable({ kind: 'all' })).toEqual([]);
  });

  it('is what the planner plans: "all" chosen after a "last N" shortcut trains every layer', () => {
    const config = { ...DEFAULT_TRAIN_CONFIG, fineTune: { kind: 'all' } as const };
    expect(planInput(SPEC, config, 'fine-tune').trainable.size).toBe(NAMES.length);
    const lastTwo = { ...DEFAULT_TRAIN_CONFIG, fineTune: { kind: 'last', n: 2 } as const };
    expect(planInput(SPEC, lastTwo, 'fine-tune').trainable.size).toBe(4);
  });
});
