import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { float16SelfCheck, type Float16Mismatch } from '../src/ml/precision/selfCheck';
import { float16Rows } from './float16';
import { float16AccuracyRows } from './float16Accuracy';
import { browserSample, webgpuComputeKind } from './sampleBrowser';
import { plannerRows, type PlannerRow } from './plannerRows';
import { inputRows } from './input';
import { techniqueRows } from './techniques';
import { hookCost, overheadRows, type HookCost } from './overhead';
import { inputRateRows, type InputRateRow } from './inputRate';
import type { BenchRow } from './types';

/** What the page hands back to `bench/run.ts`. */
export interface BrowserBench {
  backend: string;
  planner: PlannerRow[];
  techniques: BenchRow[];
  /** float16 storage against the float32 checkpointed and the plain step, and its accuracy row (issue 17). */
  float16: BenchRow[];
  /** The pack/unpack kernels on edge values, per backend: the mismatches (none when exact). */
  float16Check: { backend: string; mismatches: Float16Mismatch[] }[];
  /** The lab's instrumented step against plain tfjs (issue 16 item 2). */
  overhead: BenchRow[];
  /** The probes' µs per kernel and the kernels of a step: the overhead without the step's noise. */
  hookCost?: HookCost;
  /** Images/s the pipeline delivers against images/s the step consumes (issue 16 item 3). */
  inputRate: InputRateRow[];
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
  const result: BrowserBench = {
    backend: '',
    planner: [],
    techniques: [],
    float16: [],
    float16Check: [],
    overhead: [],
    inputRate: [],
  };
  const log = (line: string) => window.__benchProgress?.push(line);
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
      // Batch 4, not cpu's 16: on SwiftShader (2 loaded cores) the batch 16 rows did not finish in 50
      // minutes; at batch 4 they took 17 (plain fine-tune step 10 s, accumulated 43 s). The rows say so.
      result.techniques = [
        ...(await techniqueRows({ config: { size: 64, batch: 4 }, log })),
        ...(await inputRows({ quick: true })),
      ];
    if (params.get('overhead') !== '0') {
      result.overhead = await overheadRows({ size: 64, steps: 5 });
      result.hookCost = await hookCost(64, 2000);
    }
    if (params.get('inputRate') !== '0')
      result.inputRate = await inputRateRows({ jpegs: 1000, steps: 2, log });
    if (params.get('float16') !== '0') {
      result.float16Check.push({ backend: 'webgpu', mismatches: await float16SelfCheck() });
      // 32 px batch 4 on WebGPU: on SwiftShader (2 loaded cores) the 64 px batch 16 default did not
      // finish its three sides in 14 minutes (about 10,000 kernels a step); the row's label says so.
      result.float16 = await float16Rows({ steps: 1, size: 32, batch: 4, log });
      // The WebGL kernel too: its words travel through float textures (see src/ml/precision).
      if (await tf.setBackend('webgl')) {
        result.float16Check.push({ backend: 'webgl', mismatches: await float16SelfCheck() });
        await tf.setBackend('webgpu');
      }
    }
    if (params.get('float16Accuracy') !== '0')
      result.float16.push(
        ...(await float16AccuracyRows(await browserSample(), await webgpuComputeKind(), log)),
      );
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  window.__bench = result;
}

void main();
