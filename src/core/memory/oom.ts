import { formatBytes } from '../format';
// The lab's one shape for every way memory runs out, modelled on TensorFlow's ResourceExhaustedError
// so the seed's message can be reproduced and explained. Plain data: it crosses the worker boundary.

/** How memory ran out. */
export type OomKind =
  /** The simulated card (memory_limit) would have been exceeded. */
  | 'budget'
  /** The GPU driver could not allocate (WebGPU GPUOutOfMemoryError). */
  | 'device-oom'
  /** One tensor is larger than a single buffer may be (WebGPU maxBufferSize, WebGL max texture). */
  | 'buffer-limit'
  /** The GPU device was lost (WebGPU device.lost): the backend must be re-created. */
  | 'device-lost'
  /** The WebGL context was lost. */
  | 'context-lost'
  /** JavaScript could not allocate an ArrayBuffer (CPU backend, decoding). */
  | 'host-oom';

/** Where in a training step the allocation happened. */
export type StepPhase = 'input' | 'forward' | 'backward' | 'optimizer' | 'evaluation' | 'other';

export interface OomDetails {
  kind: OomKind;
  /** Shape of the tensor that did not fit, when known. */ shape: number[] | null;
  /** Its dtype, when known. */ dtype: string | null;
  /** Bytes the failing allocation asked for; NaN when unknown. */ bytesRequested: number;
  /** Live tensor bytes just before it; NaN when unknown. */ bytesInUse: number;
  /** The limit crossed (budget, maxBufferSize); NaN when unknown. */ limit: number;
  /** Layer running at the time (Keras name), when known. */ layer: string | null;
  /** That layer's class, e.g. 'Conv2D'. */ layerClass: string | null;
  /** tfjs kernel that allocated, e.g. 'Conv2D', 'FusedDepthwiseConv2D'. */ op: string | null;
  phase: StepPhase;
  /** Backend it happened on. */ backend: string;
  /** The underlying browser or driver message, for real failures. */ cause: string | null;
}

const PHASE_WORDS: Record<StepPhase, string> = {
  input: 'loading the input batch',
  forward: 'forward pass',
  backward: 'backward pass',
  optimizer: 'optimizer update',
  evaluation: 'validation',
  other: 'outside a training step',
};

/**
 * TensorFlow-style message, e.g.
 * "OOM when allocating tensor with shape[28,150,250,96] and type float32 on webgpu (simulated 2.40 GB card:
 * 2.00 GB in use, 403 MB requested)\n  Detected at layer 'block3b_project_conv' (Conv2D), forward pass".
 * The first words and the "Detected at" line are TensorFlow's; the sizes in brackets are the lab's, in
 * the decimal units the card picker offers (the user types 90 MB, not 85.8 MiB).
 */
export function oomMessage(d: OomDetails): string {
  const what =
    d.shape && d.dtype
      ? `OOM when allocating tensor with shape[${d.shape.join(',')}] and type ${d.dtype} on ${d.backend}`
      : `Out of memory on ${d.backend}`;
  const numbers = [
    Number.isFinite(d.bytesInUse) ? `${formatBytes(d.bytesInUse)} in use` : null,
    Number.isFinite(d.bytesRequested) ? `${formatBytes(d.bytesRequested)} requested` : null,
  ].filter((x): x is string => x !== null);
  const limitText: Record<OomKind, string> = {
    budget: `simulated ${formatBytes(d.limit)} card`,
    'device-oom': 'the GPU could not allocate',
    'buffer-limit': `one tensor above maxBufferSize ${formatBytes(d.limit)}`,
    'device-lost': 'GPU device lost',
    'context-lost': 'WebGL context lost',
    'host-oom': 'JavaScript memory exhausted',
  };
  const head = `${what} (${limitText[d.kind]}${numbers.length ? `: ${numbers.join(', ')}` : ''})`;
  return `${head}\n  Detected ${oomWhere(d)}${d.cause ? `\n  Cause: ${d.cause}` : ''}`;
}

/** Where in the step it ran out, as the message's "Detected …" line and the run bar say it. */
export function oomWhere(d: OomDetails): string {
  if (d.phase === 'input')
    return `while loading the input batch, before any layer ran${d.op ? ` (op ${d.op})` : ''}`;
  return d.layer
    ? `at layer '${d.layer}'${d.layerClass ? ` (${d.layerClass})` : ''}, ${PHASE_WORDS[d.phase]}`
    : `during the ${PHASE_WORDS[d.phase]}${d.op ? `, op ${d.op}` : ''}`;
}

/** Bytes of one element of a tfjs dtype. */
export function bytesPerElement(dtype: string): number {
  switch (dtype) {
    case 'float32':
    case 'int32':
      return 4;
    case 'bool':
      return 1;
    case 'complex64':
      return 8;
    default:
      return 4;
  }
}

/** Bytes of a tensor of this shape and dtype. */
export function tensorBytes(shape: readonly number[], dtype: string): number {
  return shape.reduce((a, d) => a * d, 1) * bytesPerElement(dtype);
}
