/**
 * The bench's WebGPU rows in Node, on Dawn's WebGPU for Node (the `webgpu` npm package, dawn.node)
 * instead of Chromium: on a machine with a GPU and a Vulkan driver but no browser (issue 16 item 6).
 * The project does not depend on `webgpu`; WEBGPU_NODE names its index.js (or package folder), and
 * DAWN_FLAGS passes Dawn's options (comma-separated, e.g. `backend=vulkan`).
 *
 *   WEBGPU_NODE=/tmp/webgpu/node_modules/webgpu npx tsx gpu/webgpu-node.ts --only=float16-check,techniques
 *
 * Groups (--only=a,b; all by default): float16-check (the pack/unpack kernels on edge values),
 * techniques (bench/techniques.ts at --size/--batch, 64 and 4 as the Chromium bench runs them), planner
 * (bench/plannerRows.ts), float16 (bench/float16.ts at 32 px batch 4, as the Chromium bench). --quick
 * times one step a side instead of three. The adapter's name is printed first: a software one
 * (SwiftShader) means the rows did not run on the GPU.
 */
import { pathToFileURL } from 'node:url';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { float16SelfCheck } from '../src/ml/precision/selfCheck';
import { float16Rows } from '../bench/float16';
import { plannerRows } from '../bench/plannerRows';
import { plannerSummary, plannerTable, techniqueTable } from '../bench/report';
import { techniqueRows } from '../bench/techniques';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = flag('only')?.split(',');
const group = (name: string) => !only || only.includes(name);
const size = Number(flag('size') ?? 64);
const batch = Number(flag('batch') ?? 4);
const quick = argv.includes('--quick');
const print = (lines: string[]) => console.log(lines.join('\n'));
const log = (line: string) => console.log(`  [webgpu] ${line}`);

/** Dawn's module, from WEBGPU_NODE (a folder or index.js) or the `webgpu` package where it resolves. */
async function dawn(): Promise<DawnModule> {
  const where = process.env['WEBGPU_NODE'];
  if (!where) return (await import('webgpu' as string)) as DawnModule;
  const file = statSync(where).isDirectory() ? join(where, 'index.js') : where;
  return (await import(pathToFileURL(file).href)) as DawnModule;
}

/** Gives Node a `navigator.gpu` from Dawn, then registers tfjs' WebGPU backend (it looks for one). */
async function webgpuBackend(): Promise<string> {
  const { create, globals } = await dawn();
  Object.assign(globalThis, globals);
  const flags = (process.env['DAWN_FLAGS'] ?? '').split(',').filter(Boolean);
  const gpu = create(flags);
  Object.defineProperty(globalThis, 'navigator', {
    value: { ...(globalThis.navigator ?? {}), gpu },
    configurable: true,
  });
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error(`Dawn found no adapter (flags: ${flags.join(',') || 'none'}).`);
  const { vendor, architecture, device, description } = adapter.info;
  await import('@tensorflow/tfjs-backend-webgpu');
  if (!(await tf.setBackend('webgpu'))) throw new Error('tfjs could not start its WebGPU backend on Dawn.');
  await tf.ready();
  return [vendor, architecture, device, description].filter(Boolean).join(' / ');
}

async function main(): Promise<void> {
  const adapter = await webgpuBackend();
  console.log(`tfjs ${tf.version.tfjs}, backend ${tf.getBackend()} on Dawn, adapter: ${adapter}`);
  if (group('float16-check')) {
    const mismatches = await float16SelfCheck();
    console.log(
      `\nfloat16 pack/unpack on webgpu (Dawn): ` +
        (mismatches.length === 0
          ? 'exact on every edge value'
          : `${mismatches.length} mismatches: ${JSON.stringify(mismatches.slice(0, 5))}`),
    );
  }
  if (group('techniques')) {
    console.log(`\n## Memory-saving techniques — webgpu (Dawn, Node), ${size}×${size} batch ${batch}\n`);
    print(techniqueTable(await techniqueRows({ config: { size, batch }, quick, log })));
  }
  if (group('planner')) {
    console.log('\n## Planner accuracy — webgpu (Dawn, Node)\n');
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    const rows = await plannerRows({
      onRow: (r) =>
        log(
          `${r.family} ${r.config}: measured ${mb(r.measured)}, predicted ${mb(r.predicted)} (${r.error.toFixed(2)}%)`,
        ),
    });
    print(plannerTable(rows));
    print(plannerSummary(rows));
  }
  if (group('float16')) {
    console.log('\n## float16 storage, float32 math — webgpu (Dawn, Node)\n');
    print(techniqueTable(await float16Rows({ steps: 1, size: 32, batch: 4, log })));
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
