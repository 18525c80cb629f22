import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainableLayers } from '../../core/model/modelSpec';
import { planTfjs } from '../../core/planner/planner';
import { describeModel } from './describe';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/**
 * 8×8×3 → Conv2D 4×3×3 same → Conv2D 6×3×3 stride 2 same (4×4) → DepthwiseConv2D 3×3 same → pool →
 * Dense 5. Its multiply-accumulates per example, by hand:
 * - conv 1: 8·8 positions × 4 filters × 3·3 window × 3 channels = 6,912
 * - conv 2: 4·4 × 6 × 3·3 × 4 = 3,456
 * - depthwise: 4·4 × 6 channels × 3·3 = 864
 * - dense: 5 units × 6 inputs = 30
 */
function handModel(): tf.LayersModel {
  const input = tf.input({ shape: [8, 8, 3] });
  const layers: tf.layers.Layer[] = [
    tf.layers.conv2d({ filters: 4, kernelSize: 3, padding: 'same', name: 'c1' }),
    tf.layers.conv2d({ filters: 6, kernelSize: 3, strides: 2, padding: 'same', name: 'c2' }),
    tf.layers.depthwiseConv2d({ kernelSize: 3, padding: 'same', name: 'dw' }),
    tf.layers.globalAveragePooling2d({ name: 'pool' }),
    tf.layers.dense({ units: 5, name: 'fc' }),
  ];
  const output = layers.reduce<tf.SymbolicTensor>((x, l) => l.apply(x) as tf.SymbolicTensor, input);
  return tf.model({ inputs: input, outputs: output });
}

describe('FLOP counting from the built layers', () => {
  it('counts each conv, depthwise conv and dense as the hand count does', () => {
    const model = handModel();
    const spec = describeModel(model, 4);
    const macs = Object.fromEntries(spec.layers.map((l) => [l.name, l.macs]));
    expect(macs).toMatchObject({ c1: 6912, c2: 3456, dw: 864, pool: 0, fc: 30 });
    model.dispose();
  });

  it('a step is 2 FLOPs a MAC forward, and three times that where gradients flow (batch 2)', () => {
    const model = handModel();
    const spec = describeModel(model, 4);
    const plan = (phase: 'frozen' | 'fine-tune') =>
      planTfjs({
        spec,
        batch: 2,
        trainable: trainableLayers(spec, phase, 1000),
        optimizer: 'adam',
        backboneOutsideTape: false,
        accumulationSteps: 1,
        checkpointing: 'off',
        cachedFeatures: false,
      }).flops;
    const forward = 2 * 2 * (6912 + 3456 + 864 + 30);
    expect(plan('fine-tune')).toBe(3 * forward);
    // Frozen: only the head (pool, dense) trains; the backbone runs forward only.
    expect(plan('frozen')).toBe(2 * 2 * (6912 + 3456 + 864) + 3 * 2 * 2 * 30);
    model.dispose();
  });
});
