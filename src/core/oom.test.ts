import { describe, expect, it } from 'vitest';
import { bytesPerElement, oomMessage, type OomDetails } from './oom';

const seedCase: OomDetails = {
  kind: 'budget',
  shape: [28, 150, 250, 96],
  dtype: 'float32',
  bytesRequested: 28 * 150 * 250 * 96 * 4,
  bytesInUse: 2000 * 2 ** 20,
  limit: 2048 * 2 ** 20,
  layer: 'block3b_project_conv',
  layerClass: 'Conv2D',
  op: 'Conv2D',
  phase: 'forward',
  backend: 'webgpu',
  cause: null,
};

describe('oomMessage', () => {
  it("mirrors TensorFlow's ResourceExhaustedError text and names the layer", () => {
    expect(oomMessage(seedCase)).toBe(
      'OOM when allocating tensor with shape[28,150,250,96] and type float32 on webgpu ' +
        '(simulated 2048.0 MiB card: 2000.0 MiB in use, 384.5 MiB requested)\n' +
        "  Detected at layer 'block3b_project_conv' (Conv2D), forward pass",
    );
  });

  it('falls back to the op and phase when no layer was running, and carries the cause', () => {
    const text = oomMessage({
      ...seedCase,
      kind: 'device-oom',
      layer: null,
      layerClass: null,
      op: 'Add',
      phase: 'backward',
      bytesInUse: Number.NaN,
      cause: 'vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY',
    });
    expect(text).toBe(
      'OOM when allocating tensor with shape[28,150,250,96] and type float32 on webgpu ' +
        '(the GPU could not allocate: 384.5 MiB requested)\n' +
        '  Detected during the backward pass, op Add\n' +
        '  Cause: vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY',
    );
  });

  it('works without a shape', () => {
    const text = oomMessage({
      ...seedCase,
      kind: 'device-lost',
      shape: null,
      dtype: null,
      bytesRequested: Number.NaN,
      bytesInUse: Number.NaN,
    });
    expect(text.split('\n')[0]).toBe('Out of memory on webgpu (GPU device lost)');
  });
});

describe('bytesPerElement', () => {
  it('knows the tfjs dtypes', () => {
    expect(['float32', 'int32', 'bool', 'complex64'].map(bytesPerElement)).toEqual([4, 4, 1, 8]);
  });
});
