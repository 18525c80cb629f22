import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemorySample } from '../../core/memory/memory';
import { onKernel } from './kernelHook';
import { MemorySampler, readMemory } from './sampler';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('readMemory', () => {
  it('reports live tensor bytes and count from tf.memory()', () => {
    const before = readMemory(0);
    const t = tf.zeros([256, 256]);
    const after = readMemory(1);
    expect(after.liveBytes - before.liveBytes).toBe(256 * 256 * 4);
    expect(after.numTensors - before.numTensors).toBe(1);
    t.dispose();
  });
});

/** A sampler on a clock the test moves, keeping one point per 50 ms, sending each point at once. */
function clockedSampler() {
  const clock = { now: 0 };
  const out: MemorySample[] = [];
  const sampler = new MemorySampler(
    () => clock.now,
    (s) => out.push(...s),
    50,
    0,
  );
  return { clock, out, sampler };
}

describe('MemorySampler', () => {
  it('keeps a short peak that happened between two points', () => {
    const { clock, out, sampler } = clockedSampler();
    sampler.sample();
    clock.now = 10;
    const big = tf.zeros([1000]);
    sampler.sample();
    big.dispose();
    clock.now = 60;
    sampler.sample();
    expect(out).toHaveLength(2);
    expect(out[1]!.liveBytes - out[0]!.liveBytes).toBe(4000);
    expect(out[1]!.t).toBe(60);
  });

  it('keeps a peak that lived only inside kernels, sampled at every kernel', () => {
    const { clock, out, sampler } = clockedSampler();
    sampler.sample();
    const base = out[0]!;
    clock.now = 10;
    const off = onKernel('cpu', () => sampler.sample());
    // At the Sum kernel the ones and their sum plus one are live: 8,000 bytes more than before.
    const total = tf.tidy(() => tf.sum(tf.add(tf.ones([1000]), 1)));
    off();
    total.dispose();
    clock.now = 60;
    sampler.sample();
    expect(out).toHaveLength(2);
    expect(out[1]!.liveBytes - base.liveBytes).toBe(8000);
    // The point's other figures are those of the moment it was taken.
    expect(out[1]!.numTensors).toBe(base.numTensors);
  });

  it('flushes in batches no more often than asked', () => {
    let now = 0;
    const flushes: number[] = [];
    const sampler = new MemorySampler(
      () => now,
      (s) => flushes.push(s.length),
      10,
      100,
    );
    for (now = 0; now <= 300; now += 10) sampler.sample();
    sampler.mark();
    expect(flushes.reduce((a, b) => a + b, 0)).toBe(32);
    expect(flushes.length).toBeLessThanOrEqual(5);
  });
});

describe('onKernel', () => {
  it('sees every kernel, forward and backward, and leaves results unchanged', async () => {
    const seen: string[] = [];
    const off = onKernel('cpu', (run) => seen.push(run.kernelName));
    const x = tf.tensor1d([1, 2, 3]);
    const before = tf.memory().numTensors;
    const g = tf.grad((v: tf.Tensor) => tf.sum(tf.square(v)))(x);
    expect(Array.from(await g.data())).toEqual([2, 4, 6]);
    g.dispose();
    expect(tf.memory().numTensors).toBe(before);
    off();
    const count = seen.length;
    tf.dispose(tf.square(x));
    expect(seen.length).toBe(count);
    expect(seen).toContain('Square');
    expect(seen).toContain('Sum');
    expect(seen.some((n) => n === 'Mul' || n === 'Multiply')).toBe(true);
    x.dispose();
  });
});
