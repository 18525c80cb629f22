import { describe, expect, it } from 'vitest';
import { achievedFlops, computeKind, peakNote } from './adapterKind';

const webgpu = (vendor: string, architecture: string, description = '') =>
  ({ name: 'webgpu', adapter: { vendor, architecture, description } }) as const;

describe('computeKind', () => {
  it('names SwiftShader and other software rasterisers as software, by any of the three strings', () => {
    expect(computeKind(webgpu('google', 'swiftshader'))).toBe('software');
    expect(computeKind(webgpu('mesa', 'unknown', 'llvmpipe (LLVM 15.0.7, 256 bits)'))).toBe('software');
    expect(computeKind(webgpu('unknown', 'unknown', 'fallback adapter'))).toBe('software');
  });

  it('takes a named hardware adapter for a GPU, and the cpu backend for the cpu', () => {
    expect(computeKind(webgpu('nvidia', 'ampere'))).toBe('gpu');
    expect(computeKind(webgpu('apple', 'common-3'))).toBe('gpu');
    expect(computeKind({ name: 'cpu' })).toBe('cpu');
    expect(computeKind(null)).toBe('unknown');
  });
});

describe('computeKind on WebGL', () => {
  it('reads the renderer: SwiftShader behind ANGLE is software, a named GPU is a GPU', () => {
    const renderer =
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
    expect(computeKind({ name: 'webgl', renderer })).toBe('software');
    expect(
      computeKind({ name: 'webgl', renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11)' }),
    ).toBe('gpu');
  });

  it('takes a WebGL without a renderer string for a GPU, as before renderers were read', () => {
    expect(computeKind({ name: 'webgl' })).toBe('gpu');
  });
});

describe('peakNote', () => {
  it('says there is no meaningful peak on a software adapter or the cpu backend', () => {
    expect(peakNote('software')).toEqual({
      peakFlops: null,
      note: expect.stringMatching(/no meaningful peak/),
    });
    expect(peakNote('cpu').note).toMatch(/no meaningful peak/);
    expect(peakNote('gpu').note).toMatch(/not known/);
  });
});

describe('achievedFlops', () => {
  it('divides the FLOPs by the step time in seconds', () => {
    expect(achievedFlops(3e9, 1500)).toBe(2e9);
    expect(achievedFlops(3e9, 0)).toBeNaN();
  });
});
