import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { onKernel, type KernelRun } from './kernelHook';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Runs fn with a listener that records what it learns about each kernel (derived fields read there). */
function seen<T>(fn: () => T): {
  result: T;
  runs: { name: string; live: number; alloc: number; out: number }[];
} {
  const runs: { name: string; live: number; alloc: number; out: number }[] = [];
  const off = onKernel('cpu', (run: KernelRun) =>
    runs.push({
      name: run.kernelName,
      live: run.liveBytes,
      alloc: run.allocation.bytes,
      out: run.outputBytes,
    }),
  );
  try {
    return { result: fn(), runs };
  } finally {
    off();
  }
}

describe('KernelRun', () => {
  it('reads live bytes before the outputs count, and counts new buffers as the allocation', () => {
    const tensorsBefore = tf.memory().numTensors;
    const x = tf.ones([10, 10]);
    const liveBefore = tf.memory().numBytes;
    const { result, runs } = seen(() => tf.add(x, x));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toEqual({ name: 'Add', live: liveBefore, alloc: 400, out: 400 });
    expect(tf.memory().numBytes - liveBefore).toBe(400);
    tf.dispose([x, result]);
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });

  it('counts an output that aliases its input (Reshape) as an output but not as an allocation', () => {
    const x = tf.ones([4, 25]);
    const { result, runs } = seen(() => tf.reshape(x, [100]));
    const reshape = runs.find((r) => r.name === 'Reshape');
    expect(reshape).toEqual({ name: 'Reshape', live: tf.memory().numBytes - 400, alloc: 0, out: 400 });
    tf.dispose([x, result]);
  });
});
