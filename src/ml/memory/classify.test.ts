import { describe, expect, it } from 'vitest';
import { classifyFailure, realFailure } from './classify';

describe('classifyFailure', () => {
  it('reads WebGPU error scopes first', () => {
    expect(
      classifyFailure(
        [{ filter: 'out-of-memory', message: 'vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY' }],
        null,
      ),
    ).toEqual({ kind: 'device-oom', cause: 'vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY' });
    expect(
      classifyFailure(
        [
          {
            filter: 'validation',
            message: 'Buffer size (1073741828) exceeds the max buffer size limit (1073741824).',
          },
        ],
        new Error("Failed to execute 'mapAsync' on 'GPUBuffer': [Invalid Buffer]"),
      )?.kind,
    ).toBe('buffer-limit');
  });

  it('recognises a lost device before anything else', () => {
    expect(
      classifyFailure([{ filter: 'out-of-memory', message: 'device lost: Device was destroyed.' }], null),
    ).toEqual({
      kind: 'device-lost',
      cause: 'device lost: Device was destroyed.',
    });
  });

  it('recognises WebGL texture limits and JavaScript allocation failures', () => {
    expect(
      classifyFailure(
        [],
        new Error(
          'Requested texture size [40000x3] greater than WebGL maximum on this browser / GPU [16384x16384].',
        ),
      )?.kind,
    ).toBe('buffer-limit');
    expect(classifyFailure([], new RangeError('Array buffer allocation failed'))?.kind).toBe('host-oom');
  });

  it('leaves other failures alone', () => {
    expect(
      classifyFailure([{ filter: 'validation', message: 'Binding size mismatch' }], new Error('boom')),
    ).toBeNull();
    expect(classifyFailure([], new Error('Cannot decode "a.jpg"'))).toBeNull();
  });
});

describe('realFailure', () => {
  it('describes the failure by the largest allocation of the step', () => {
    const err = realFailure(
      'buffer-limit',
      'Buffer size exceeds the max buffer size limit',
      {
        shape: [268435457],
        dtype: 'float32',
        bytes: 1073741828,
        bytesInUse: 1000,
        layer: null,
        layerClass: null,
        op: 'Fill',
        phase: 'other',
      },
      1073741824,
      'webgpu',
    );
    expect(err.name).toBe('ResourceExhaustedError');
    expect(err.message.split('\n')[0]).toBe(
      'OOM when allocating tensor with shape[268435457] and type float32 on webgpu (one tensor above maxBufferSize 1.07 GB: 1.00 KB in use, 1.07 GB requested)',
    );
  });
});
