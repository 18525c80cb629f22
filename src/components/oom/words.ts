import type { OomKind } from '../../core/memory/oom';
import type { Plan } from '../../core/planner/planner';

/** What each kind of failure means, in one sentence. */
export const KIND_WORDS: Record<OomKind, string> = {
  budget:
    'The simulated card is full: this allocation would have pushed live tensors past the limit you set.',
  'device-oom': 'The GPU itself could not allocate the memory (a real out-of-memory error from the driver).',
  'buffer-limit':
    'One single tensor is larger than the GPU allows for one buffer, even though total memory may be fine.',
  'device-lost': 'The GPU device was lost (the GPU process died); the backend has to be started again.',
  'context-lost': 'The WebGL context was lost; the backend has to be started again.',
  'host-oom': 'JavaScript could not allocate the memory (CPU backend or image decoding).',
};

export const CATEGORY_WORDS: Record<keyof Plan['categories'], string> = {
  weights: 'weights',
  optimizer: 'Adam slots',
  input: 'input batches',
  gradients: 'weight gradients',
  savedActivations: 'activations saved for backward',
  transient: 'activation gradients and temporaries',
};
