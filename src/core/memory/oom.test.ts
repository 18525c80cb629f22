import { describe, expect, it } from 'vitest';
import { bytesPerElement, oomMessage, type OomDetails } from './oom';

const seedCase: OomDetails = {
  kind: 'budget',
  shape: [28, 150, 250, 96],
  dtype: 'float32',
  bytesRequested: 28 * 150 * 250 * 96 * 4,
  bytesInUse: 2e9,
  limit: 2.4e9,
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
        '(simulated 2.40 GB card: 2.00 GB in use, 403 MB requested)\n' +
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
        '(the GPU could not allocate: 403 MB requested)\n' +
        '  Detected during the backward pass, op Add\n' +
        '  Cause: vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY',
    );
  });

  it('says the input batch, never a layer, when the input did not fit', () => {
    const text = oomMessage({ ...seedCase, shape: [64, 512, 512, 3], phase: 'input', op: 'Pack' });
    expect(text.split('\n')[1]).toBe(
      '  Detected while loading the input batch, before any layer ran (op Pack)',
    );
    expect(text).not.toContain('block3b_project_conv');
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

describe('units', () => {
  it('states a card the user typed as 90 MB in MB, not in MiB', () => {
    const text = oomMessage({
      ...seedCase,
      shape: [16, 48, 48, 3],
      bytesRequested: 16 * 48 * 48 * 3 * 4,
      bytesInUse: 89.7e6,
      limit: 90e6,
    });
    expect(text.split('\n')[0]).toBe(
      'OOM when allocating tensor with shape[16,48,48,3] and type float32 on webgpu ' +
        '(simulated 90.0 MB card: 89.7 MB in use, 442 KB requested)',
    );
    expect(text).not.toContain('MiB');
  });

  it('states a buffer limit in the same units', () => {
    const text = oomMessage({ ...seedCase, kind: 'buffer-limit', limit: 2 ** 28, bytesInUse: 0 });
    expect(text.split('\n')[0]).toContain(
      '(one tensor above maxBufferSize 268 MB: 0 B in use, 403 MB requested)',
    );
  });
});

describe('bytesPerElement', () => {
  it('knows the tfjs dtypes', () => {
    expect(['float32', 'int32', 'bool', 'complex64'].map(bytesPerElement)).toEqual([4, 4, 1, 8]);
  });
});
