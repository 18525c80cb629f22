import { describe, expect, it } from 'vitest';
import { backendCandidates, softwareWebGPUReason } from './backend';

const swiftshader = { adapter: 'google / swiftshader, SwiftShader Device (Subzero)', software: true };
const nvidia = { adapter: 'nvidia / ampere', software: false };

describe('backendCandidates', () => {
  it('tries WebGPU, WebGL, then the cpu backend on auto when the adapter is a GPU or unknown', () => {
    expect(backendCandidates('auto', nvidia)).toEqual(['webgpu', 'webgl', 'cpu']);
    expect(backendCandidates('auto', null)).toEqual(['webgpu', 'webgl', 'cpu']);
    expect(backendCandidates('auto')).toEqual(['webgpu', 'webgl', 'cpu']);
  });

  it('puts WebGL first on auto when the WebGPU adapter is software, keeping WebGPU as its fallback', () => {
    expect(backendCandidates('auto', swiftshader)).toEqual(['webgl', 'webgpu', 'cpu']);
  });

  it('gives exactly the backend asked for, whatever the adapter', () => {
    expect(backendCandidates('webgpu', swiftshader)).toEqual(['webgpu']);
    expect(backendCandidates('cpu', nvidia)).toEqual(['cpu']);
  });
});

describe('softwareWebGPUReason', () => {
  it('names the adapter and how to use WebGPU anyway', () => {
    const line = softwareWebGPUReason(swiftshader);
    expect(line).toMatch(/^webgpu: /);
    expect(line).toContain('google / swiftshader, SwiftShader Device (Subzero)');
    expect(line).toContain('Choose webgpu');
  });
});
