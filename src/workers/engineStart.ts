// Engine start-up: the training worker first; the page's own thread when the worker gets no GPU but the
// page does (some browsers give workers no WebGPU adapter). A worker that found WebGPU's adapter and
// passed it over (a software one: auto trains WebGL there, core/device/backend) stays: the page would find the
// same adapter, and training on the page's thread would block the page for the length of every step.
import type { BackendInfo, BackendRequest } from '../core/device/backend';
import { InThreadTransport, WorkerTransport, type Transport, type UnsolicitedHandler } from './transport';
import { errorMessage } from '../core/format';

export interface StartedEngine {
  transport: Transport;
  info: BackendInfo;
  /** Why the worker was not used, when the engine fell back to the page thread. */
  fallback: string | null;
}

export async function startEngine(
  request: BackendRequest,
  webglF16Textures: boolean,
  onUnsolicited: UnsolicitedHandler,
): Promise<StartedEngine> {
  let workerInfo: BackendInfo | null = null;
  let fallback: string | null = null;
  try {
    const worker = new Worker(new URL('./training.worker.ts', import.meta.url), {
      type: 'module',
      name: 'vram-lab-training',
    });
    const transport = new WorkerTransport(worker, onUnsolicited);
    workerInfo = await transport.send({ type: 'init', backend: request, webglF16Textures });
    if (workerInfo.name === 'webgpu' || workerInfo.softwareWebGPU || !(await pageHasGpu(request)))
      return { transport, info: workerInfo, fallback: null };
    transport.close();
  } catch (err) {
    fallback = `The training worker could not start (${errorMessage(err)}); training on the page thread.`;
  }
  const transport = new InThreadTransport(onUnsolicited);
  const info = await transport.send({ type: 'init', backend: request, webglF16Textures });
  if (workerInfo)
    info.skipped.unshift(`Web Worker: only ${workerInfo.name} there, WebGPU works on the page thread`);
  return { transport, info, fallback };
}

async function pageHasGpu(request: BackendRequest): Promise<boolean> {
  if (request !== 'auto' && request !== 'webgpu') return false;
  return 'gpu' in navigator && !!(await navigator.gpu.requestAdapter().catch(() => null));
}
