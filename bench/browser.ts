import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { plannerRows, type PlannerRow } from './plannerRows';
import { inputRows } from './input';
import { techniqueRows } from './techniques';
import type { BenchRow } from './types';

/** What the page hands back to `bench/run.ts`. */
export interface BrowserBench {
  backend: string;
  planner: PlannerRow[];
  techniques: BenchRow[];
  error?: string;
}

declare global {
  interface Window {
    __bench?: BrowserBench;
    __benchProgress?: string[];
  }
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const result: BrowserBench = { backend: '', planner: [], techniques: [] };
  window.__benchProgress = [];
  try {
    if (!(await tf.setBackend('webgpu'))) throw new Error('WebGPU is not available in this browser');
    await tf.ready();
    result.backend = tf.getBackend();
    if (params.get('planner') !== '0')
      result.planner = await plannerRows({
        onRow: (r) => window.__benchProgress?.push(`${r.config}: ${r.error.toFixed(2)}%`),
      });
    if (params.get('techniques') !== '0')
      // Technique rows time three steps as on cpu: one SwiftShader step varies by a third from run to run.
      result.techniques = [...(await techniqueRows({})), ...(await inputRows({ quick: true }))];
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  window.__bench = result;
}

void main();
