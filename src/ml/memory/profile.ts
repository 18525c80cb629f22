import * as tf from '@tensorflow/tfjs';
import type { ProfiledKernel, StepProfile } from '../../core/memory/memory';

/** What tf.profile resolves to (tfjs exports the function, not its type). */
type ProfileInfo = Awaited<ReturnType<typeof tf.profile>>;

/** Kernels listed in each of the profile's two top lists. */
export const TOP_KERNELS = 5;

/**
 * Runs `step` under tf.profile and returns its result with the profile summarised. tf.profile turns an
 * exception thrown inside a kernel into an unrelated TypeError, so a profiled step must not rely on
 * kernels throwing (the simulated card does; the lab does not profile with one set).
 */
export async function profileStep<T>(step: () => Promise<T>): Promise<{ result: T; profile: StepProfile }> {
  let result: { value: T } | null = null;
  const info = await tf.profile(async () => {
    result = { value: await step() };
  });
  if (!result) throw new Error('The profiled step returned nothing.');
  return { result: (result as { value: T }).value, profile: await summarizeProfile(info) };
}

/** The summary the lab shows of a tf.profile result (kernel times awaited). */
export async function summarizeProfile(info: ProfileInfo): Promise<StepProfile> {
  const kernels: ProfiledKernel[] = await Promise.all(
    info.kernels.map(async (k) => {
      const time = await k.kernelTimeMs;
      return {
        name: k.name,
        bytesAdded: k.bytesAdded,
        ms: typeof time === 'number' && Number.isFinite(time) ? time : null,
        outputShapes: k.outputShapes,
      };
    }),
  );
  const timed = kernels.every((k) => k.ms !== null);
  return {
    peakBytes: info.peakBytes,
    newBytes: info.newBytes,
    newTensors: info.newTensors,
    kernelCount: kernels.length,
    kernelMs: timed ? kernels.reduce((a, k) => a + (k.ms ?? 0), 0) : null,
    slowest: timed ? [...kernels].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, TOP_KERNELS) : [],
    largest: [...kernels].sort((a, b) => b.bytesAdded - a.bytesAdded).slice(0, TOP_KERNELS),
  };
}
