import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  dropoutLayers,
  interceptKernels,
  layerWeightLists,
  registeredVariables,
  releaseAbandonedTape,
  setDropoutRate,
  tapeSavedTensors,
  webglContext,
  webgpuAdapter,
  webgpuDevice,
  withDropoutSeedsSet,
} from './tfjsInternals';

// These tests pin the tfjs 4.22 behaviour each reach relies on, so an upgrade that changes it fails here.

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('gradient tape', () => {
  it('lists the tensors saved for the backward pass only while a tape records', () => {
    const x = tf.variable(tf.tensor1d([1, 2, 3]));
    expect(tapeSavedTensors()).toEqual([]);
    let saved = 0;
    const { value, grads } = tf.variableGrads(() => {
      const y = tf.sum(tf.square(x));
      saved = tapeSavedTensors().length;
      return y as tf.Scalar;
    }, [x]);
    expect(saved).toBeGreaterThan(0);
    expect(tapeSavedTensors()).toEqual([]);
    tf.dispose([value, ...Object.values(grads), x]);
  });

  it('releases what a tape abandoned by a throwing kernel kept', () => {
    const x = tf.variable(tf.tensor1d([1, 2, 3]));
    const before = tf.memory().numTensors;
    expect(() =>
      tf.variableGrads(() => {
        const y = tf.sum(tf.square(tf.exp(x)));
        throw new Error(`failed after ${y.rank === 0 ? 'a scalar' : 'a tensor'}`);
      }, [x]),
    ).toThrow('failed after a scalar');
    releaseAbandonedTape();
    expect(tapeSavedTensors()).toEqual([]);
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
  });
});

describe('engine', () => {
  it('registers every variable by name until it is disposed', () => {
    const v = tf.variable(tf.scalar(1), true, 'internals_test_v');
    expect(registeredVariables()['internals_test_v']).toBe(v);
    v.dispose();
    expect(registeredVariables()['internals_test_v']).toBeUndefined();
  });
});

describe('kernel interception', () => {
  it('sees each kernel with its outputs and releases them when the interceptor throws', () => {
    const seen: string[] = [];
    let failOn: string | null = null;
    interceptKernels(
      'cpu',
      () => true,
      ({ kernelName, outputs }) => {
        if (kernelName === 'Square' || kernelName === failOn) seen.push(`${kernelName}:${outputs.length}`);
        if (kernelName === failOn) throw new Error(`no room for ${kernelName}`);
      },
    );
    const a = tf.tensor1d([1, 2]);
    tf.square(a).dispose();
    expect(seen).toEqual(['Square:1']);
    failOn = 'Exp';
    const before = tf.memory();
    expect(() => tf.exp(a)).toThrow('no room for Exp');
    expect(tf.memory().numTensors).toBe(before.numTensors);
    expect(tf.memory().numBytes).toBe(before.numBytes);
    failOn = null;
    a.dispose();
  });
});

describe('Dropout fields', () => {
  function model() {
    const input = tf.input({ shape: [64] });
    const output = tf.layers.dropout({ rate: 0.5, seed: 7 }).apply(input) as tf.SymbolicTensor;
    return tf.model({ inputs: input, outputs: output });
  }

  it('seeds the masks for the call and restores the layer seed', () => {
    const m = model();
    const [drop] = dropoutLayers(m);
    const x = tf.ones([2, 64]);
    const draw = () => withDropoutSeedsSet([drop!], ['s'], () => m.apply(x, { training: true }) as tf.Tensor);
    const [a, b] = [draw(), draw()];
    expect(Array.from(a.dataSync())).toEqual(Array.from(b.dataSync()));
    expect(drop!.getConfig()['seed']).toBe(7);
    tf.dispose([a, b, x]);
    m.dispose();
  });

  it('sets the rate that call() applies, and only on Dropout layers', () => {
    const m = model();
    const [drop] = dropoutLayers(m);
    setDropoutRate(drop!, 0);
    const x = tf.ones([2, 64]);
    const y = m.apply(x, { training: true }) as tf.Tensor;
    expect(Array.from(y.dataSync()).every((v) => v === 1)).toBe(true);
    expect(() => setDropoutRate(m.layers[0]!, 0)).toThrow('is not a Dropout layer');
    tf.dispose([x, y]);
    m.dispose();
  });
});

describe('layer weight lists', () => {
  it('lists what a layer would train even while it is frozen', () => {
    const bn = tf.layers.batchNormalization();
    bn.apply(tf.input({ shape: [4] }));
    bn.trainable = false;
    expect(bn.trainableWeights).toEqual([]);
    const { trainable, nonTrainable } = layerWeightLists(bn);
    expect(trainable.map((w) => w.shape)).toEqual([[4], [4]]);
    expect(nonTrainable.map((w) => w.shape)).toEqual([[4], [4]]);
    bn.dispose();
  });
});

describe('backend objects', () => {
  it('are null on a backend that is neither WebGPU nor WebGL', () => {
    expect(webgpuDevice()).toBeNull();
    expect(webgpuAdapter()).toBeNull();
    expect(webglContext()).toBeNull();
  });
});
