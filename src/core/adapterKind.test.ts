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
