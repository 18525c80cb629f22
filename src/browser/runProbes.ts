import type { StepProfile } from '../core/memory/memory';
import type { EngineEvent } from '../core/run/protocol';
import type { TrainConfig } from '../core/settings/trainConfig';
import { installBudget } from '../ml/memory/budget';
import { onKernel } from '../ml/memory/kernelHook';
import { attributeOutputs } from '../ml/memory/layerContext';
import { profileStep } from '../ml/memory/profile';
import { LargestAllocation } from '../ml/memory/recorder';
import { MemorySampler } from '../ml/memory/sampler';
import { StepPeak } from '../ml/memory/stepPeak';
import type { RunContext } from '../ml/train/runLoop';
import { makeStepGuard } from './gpuGuard';

/** Timer sampling between kernels (idle moments, waits on the GPU); kernels sample the busy moments. */
const SAMPLE_TIMER_MS = 100;

/** The measuring a training run does, installed when it starts and removed when it ends. */
export interface RunProbes extends Pick<RunContext, 'guardStep' | 'stepPeakBytes' | 'stepProfile'> {
  /** Records a memory point now and sends every pending one (still works after dispose). */
  mark(): void;
  /** Removes every kernel listener and the sampling timer. */
  dispose(): void;
}

/**
 * Starts a run's probes on `backendName`: the memory timeline (sampled at every kernel and on a timer,
 * sent as 'memory' events), layer attribution, the simulated card (`config.budgetBytes`, read at every
 * kernel), the largest allocation for naming a real failure, and each step's peak; in precise mode each
 * step also runs under tf.profile. Records the first memory point.
 */
export function startRunProbes(
  backendName: string,
  config: Pick<TrainConfig, 'budgetBytes' | 'preciseProfile'>,
  now: () => number,
  emit: (e: EngineEvent) => void,
): RunProbes {
  const sampler = new MemorySampler(now, (samples) => emit({ kind: 'memory', samples }));
  sampler.mark();
  const offSampler = onKernel(backendName, () => sampler.sample());
  const offAttribution = attributeOutputs(backendName);
  const offBudget = installBudget(backendName, () => config.budgetBytes);
  const recorder = new LargestAllocation(backendName);
  const guard = makeStepGuard(recorder);
  const stepPeak = new StepPeak(backendName);
  const timer = setInterval(() => sampler.sample(), SAMPLE_TIMER_MS);
  let lastProfile: StepProfile | null = null;
  return {
    mark: () => sampler.mark(),
    guardStep: async (step) => {
      stepPeak.reset();
      lastProfile = null;
      if (!config.preciseProfile) return guard(step);
      const { result, profile } = await guard(() => profileStep(step));
      lastProfile = profile;
      return result;
    },
    stepPeakBytes: () => stepPeak.value,
    stepProfile: () => lastProfile,
    dispose: () => {
      clearInterval(timer);
      offSampler();
      offAttribution();
      offBudget();
      recorder.dispose();
      stepPeak.dispose();
    },
  };
}
