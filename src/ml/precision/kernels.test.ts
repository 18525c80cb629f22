import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_VALUES } from './edgeValues';
import { packHalves, roundToHalf } from './half';
import { packFloat16, unpackFloat16 } from './kernels';
import { float16SelfCheck } from './selfCheck';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('float16 pack and unpack kernels (cpu)', () => {
  it('pack gives the reference words for the edge values, odd length included', async () => {
    const values = Float32Array.from(EDGE_VALUES);
    expect(values.length % 2).toBe(1);
    const x = tf.tensor1d(values);
    const packed = packFloat16(x);
    expect(packed.dtype).toBe('int32');
    expect(packed.shape).toEqual([Math.ceil(values.length / 2)]);
    expect(Array.from(await packed.data())).toEqual(Array.from(packHalves(values)));
    tf.dispose([x, packed]);
  });

  it('unpack restores any shape with every value rounded to the nearest half', async () => {
    const x = tf.randomNormal([2, 3, 5, 7], 0, 100, 'float32', 4);
    const back = unpackFloat16<tf.Rank.R4>(packFloat16(x), [2, 3, 5, 7]);
    expect(back.shape).toEqual([2, 3, 5, 7]);
    const want = Array.from(await x.data(), roundToHalf);
    expect(Array.from(await back.data())).toEqual(want);
    tf.dispose([x, back]);
  });

  it('the self-check finds no mismatch on cpu', async () => {
    expect(await float16SelfCheck()).toEqual([]);
  });

  it('refuses words that cannot hold the shape', () => {
    const packed = tf.tensor1d([1, 2], 'int32');
    expect(() => unpackFloat16(packed, [5])).toThrow('2 words cannot hold 5 values');
    packed.dispose();
  });

  it('leaks nothing: packing, unpacking and the self-check leave numTensors where it was', async () => {
    const x = tf.randomUniform([4, 9]);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      const packed = packFloat16(x);
      tf.dispose([packed, unpackFloat16(packed, [4, 9])]);
      await float16SelfCheck();
    }
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
  });
});
