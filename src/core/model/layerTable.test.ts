import { describe, expect, it } from 'vitest';
import {
  freezeBackbone,
  groupRows,
  layerBlock,
  layerRows,
  paramTotals,
  toggleBlock,
  toggleLayer,
  unfreezeAll,
  unfreezeFromBlock,
  unfreezeLastN,
} from './layerTable';
import { trainableLayers, type LayerKind, type LayerSpec, type ModelSpec } from './modelSpec';

function layer(
  name: string,
  className: string,
  kind: LayerKind,
  outputShape: number[],
  trainableWeightSizes: number[] = [],
  fixedWeightSizes: number[] = [],
): LayerSpec {
  return {
    name,
    className,
    kind,
    inputs: [],
    inputShapes: [],
    outputShape,
    trainableWeightSizes,
    fixedWeightSizes,
    macs: 0,
  };
}

const bn = (name: string, channels: number, shape: number[]) =>
  layer(name, 'BatchNormalization', 'batchNormalization', shape, [channels, channels], [channels, channels]);

/** A miniature EfficientNet at 8×12: preprocessing, stem, stage 1 (one block), stage 2 (two blocks), top, head. */
const SPEC: ModelSpec = {
  name: 'mini',
  height: 8,
  width: 12,
  layers: [
    layer('input_layer', 'InputLayer', 'input', [8, 12, 3]),
    layer('rescaling', 'Rescaling', 'rescaling', [8, 12, 3]),
    layer('normalization', 'Normalization', 'normalization', [8, 12, 3], [], [3, 3, 1]),
    layer('stem_conv', 'Conv2D', 'conv2d', [4, 6, 4], [108]),
    bn('stem_bn', 4, [4, 6, 4]),
    layer('stem_activation', 'Activation', 'activation', [4, 6, 4]),
    layer('block1a_dwconv', 'DepthwiseConv2D', 'depthwiseConv2d', [4, 6, 4], [36]),
    bn('block1a_bn', 4, [4, 6, 4]),
    layer('block2a_expand_conv', 'Conv2D', 'conv2d', [2, 3, 8], [32]),
    bn('block2a_bn', 8, [2, 3, 8]),
    layer('block2b_project_conv', 'Conv2D', 'conv2d', [2, 3, 8], [64]),
    layer('block2b_add', 'Add', 'add', [2, 3, 8]),
    layer('top_conv', 'Conv2D', 'conv2d', [2, 3, 16], [128]),
    bn('top_bn', 16, [2, 3, 16]),
    layer('avg_pool', 'GlobalAveragePooling2D', 'globalAveragePooling2d', [16]),
    layer('head_dropout_1', 'Dropout', 'dropout', [16]),
    layer('head_dense', 'Dense', 'dense', [4], [64, 4]),
    layer('head_dropout_2', 'Dropout', 'dropout', [4]),
    layer('predictions', 'Dense', 'dense', [3], [12, 3]),
  ],
  backboneLayerCount: 14,
};

const HEAD = ['avg_pool', 'head_dropout_1', 'head_dense', 'head_dropout_2', 'predictions'];
const TOTAL = 7 + 108 + 16 + 36 + 16 + 32 + 32 + 64 + 128 + 64 + 68 + 15;
const HEAD_PARAMS = 68 + 15;

describe('layerBlock', () => {
  it.each([
    ['input_layer', 'input'],
    ['input_1', 'input'],
    ['rescaling_1', 'preprocessing'],
    ['normalization', 'preprocessing'],
    ['stem_conv_pad', 'stem'],
    ['block3b_project_conv', 'block3b'],
    ['block6y_se_excite', 'block6y'],
    ['top_activation', 'top'],
    ['avg_pool', 'head'],
    ['head_dense', 'head'],
    ['predictions', 'head'],
    ['Conv1', 'stem'],
    ['expanded_conv_project_BN', 'expanded_conv'],
    ['block_13_pad', 'block_13'],
    ['Conv_1_bn', 'top'],
    ['out_relu', 'top'],
    ['graph_backbone/conv', 'graph'],
    ['dense_7', 'other'],
  ])('%s belongs to %s', (name, block) => {
    expect(layerBlock(name)).toBe(block);
  });
});

describe('layerRows', () => {
  it('gives each layer its block, shape, parameters and trainable flag', () => {
    const rows = layerRows(SPEC, new Set(['block2a_bn', 'block2a_expand_conv', ...HEAD]));
    expect(rows.map((r) => r.name)).toEqual(SPEC.layers.map((l) => l.name));
    const bnRow = rows.find((r) => r.name === 'block2a_bn');
    expect(bnRow).toMatchObject({
      className: 'BatchNormalization',
      block: 'block2a',
      outputShape: [2, 3, 8],
      params: 32,
      fixedParams: 16,
      trainableParams: 16,
      canTrain: true,
      inHead: false,
      isBatchNorm: true,
      trainable: true,
    });
    expect(rows.find((r) => r.name === 'top_bn')).toMatchObject({ trainableParams: 0, trainable: false });
    expect(rows.find((r) => r.name === 'normalization')).toMatchObject({
      params: 7,
      fixedParams: 7,
      canTrain: false,
    });
    expect(rows.find((r) => r.name === 'avg_pool')).toMatchObject({ inHead: true, canTrain: false });
  });
});

describe('groupRows', () => {
  it('groups by block in model order with per-group totals and state', () => {
    const groups = groupRows(layerRows(SPEC, new Set(['block2a_expand_conv', ...HEAD])));
    expect(groups.map((g) => g.block)).toEqual([
      'input',
      'preprocessing',
      'stem',
      'block1a',
      'block2a',
      'block2b',
      'top',
      'head',
    ]);
    const byBlock = new Map(groups.map((g) => [g.block, g]));
    expect(byBlock.get('block2a')).toMatchObject({ params: 64, trainableParams: 32, state: 'some' });
    expect(byBlock.get('block2b')).toMatchObject({ params: 64, trainableParams: 0, state: 'none' });
    expect(byBlock.get('head')).toMatchObject({
      params: HEAD_PARAMS,
      trainableParams: HEAD_PARAMS,
      state: 'all',
      toggleable: false,
    });
    expect(byBlock.get('preprocessing')).toMatchObject({ state: 'none', toggleable: false });
    expect(byBlock.get('stem')?.toggleable).toBe(true);
    expect(groups.flatMap((g) => g.rows.map((r) => r.name))).toEqual(SPEC.layers.map((l) => l.name));
  });

  it('ignores layers without trainable weights when deciding that a block is all trainable', () => {
    const groups = groupRows(layerRows(SPEC, new Set(['block2b_project_conv'])));
    expect(groups.find((g) => g.block === 'block2b')?.state).toBe('all');
  });
});

describe('paramTotals', () => {
  it('splits parameters into trainable and frozen, moving statistics always frozen', () => {
    const totals = paramTotals(layerRows(SPEC, unfreezeAll(SPEC)));
    const fixed = 7 + 8 + 8 + 16 + 32;
    expect(totals).toEqual({
      params: TOTAL,
      trainable: TOTAL - fixed,
      frozen: fixed,
      trainableLayers: 11,
      layersWithWeights: 11,
    });
  });

  it('counts only the head for a frozen backbone', () => {
    const totals = paramTotals(layerRows(SPEC, freezeBackbone(SPEC)));
    expect(totals).toMatchObject({ trainable: HEAD_PARAMS, frozen: TOTAL - HEAD_PARAMS, trainableLayers: 2 });
  });

  it('is all zero for a model without layers', () => {
    const empty: ModelSpec = { name: 'empty', height: 1, width: 1, layers: [], backboneLayerCount: 0 };
    expect(paramTotals(layerRows(empty, new Set()))).toEqual({
      params: 0,
      trainable: 0,
      frozen: 0,
      trainableLayers: 0,
      layersWithWeights: 0,
    });
    expect(groupRows([])).toEqual([]);
  });
});

describe('shortcuts', () => {
  it('head only is the frozen phase of the Keras convention', () => {
    expect([...freezeBackbone(SPEC)]).toEqual(HEAD);
  });

  it('unfreezes the last N backbone layers exactly as the fine-tune phase does', () => {
    expect([...unfreezeLastN(SPEC, 3)]).toEqual(['block2b_add', 'top_conv', 'top_bn', ...HEAD]);
    expect(unfreezeLastN(SPEC, 0)).toEqual(freezeBackbone(SPEC));
    for (const n of [0, 1, 5, 13, 14, 100]) {
      expect(unfreezeLastN(SPEC, n)).toEqual(trainableLayers(SPEC, 'fine-tune', n));
    }
  });

  it('unfreezes everything', () => {
    expect(unfreezeAll(SPEC).size).toBe(SPEC.layers.length);
  });

  it('unfreezes from a block or from the start of a stage', () => {
    const fromBlock2b = ['block2b_project_conv', 'block2b_add', 'top_conv', 'top_bn', ...HEAD];
    expect([...unfreezeFromBlock(SPEC, 'block2b')]).toEqual(fromBlock2b);
    const fromStage2 = [...unfreezeFromBlock(SPEC, 'block2')];
    expect(fromStage2).toEqual(['block2a_expand_conv', 'block2a_bn', ...fromBlock2b]);
    expect(unfreezeFromBlock(SPEC, 'block2a')).toEqual(new Set(fromStage2));
    expect(unfreezeFromBlock(SPEC, 'top')).toEqual(unfreezeLastN(SPEC, 2));
    expect(unfreezeFromBlock(SPEC, 'head')).toEqual(freezeBackbone(SPEC));
  });

  it('rejects a block the model does not have', () => {
    expect(() => unfreezeFromBlock(SPEC, 'block9')).toThrow(RangeError);
    expect(() => unfreezeFromBlock(SPEC, 'block2c')).toThrow("mini has no block 'block2c'");
  });
});

describe('toggles', () => {
  it('toggles one layer without touching the given set', () => {
    const set = freezeBackbone(SPEC);
    const on = toggleLayer(set, 'top_conv');
    expect(on.has('top_conv')).toBe(true);
    expect(set.has('top_conv')).toBe(false);
    expect(toggleLayer(on, 'top_conv')).toEqual(set);
  });

  it('unfreezes a block unless all its trainable layers already train, then freezes it', () => {
    const partial = new Set([...freezeBackbone(SPEC), 'block2b_project_conv', 'block2a_bn']);
    const all = toggleBlock(SPEC, partial, 'block2a');
    expect(all.has('block2a_expand_conv') && all.has('block2a_bn')).toBe(true);
    const none = toggleBlock(SPEC, all, 'block2a');
    expect(none.has('block2a_expand_conv') || none.has('block2a_bn')).toBe(false);
    expect(none.has('block2b_project_conv')).toBe(true);
  });

  it('treats a block as all trainable when its weightless layers are frozen', () => {
    const set = new Set(['block2b_project_conv']);
    expect(toggleBlock(SPEC, set, 'block2b').size).toBe(0);
  });

  it('never freezes the head', () => {
    expect(toggleBlock(SPEC, freezeBackbone(SPEC), 'head')).toEqual(freezeBackbone(SPEC));
  });
});
