import * as tf from '@tensorflow/tfjs';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { findChromium } from '../e2e/chromium';
import type { BrowserBench } from './browser';
import { plannerRows } from './plannerRows';
import { plannerSummary, plannerTable, techniqueTable } from './report';
import { inputRows } from './input';
import { techniqueRows } from './techniques';
import { float16Rows } from './float16';
import { float16AccuracyRows } from './float16Accuracy';
import { nodeSample } from './sampleNode';
import { listingRow, listingTable } from './listing';
import { longTaskRow, longTaskTable } from './longTasks';
import { hookCost, hookCostLine, overheadRows } from './overhead';
import { inputRateTable } from './inputRate';
import { journeyRow, journeyTable } from './journey';
import { kerasRows, kerasTable } from './keras';
import { leanLine, leanRows, leanSummary } from './lean';

/**
 * `npm run bench`: every row is measured in this run, side by side. First on the cpu backend in Node,
 * then on WebGPU in headless Chromium (SwiftShader on machines without a GPU). Flags:
 * --cpu-only, --webgpu-only, --no-<group> to leave a group out, --only=<group>,<group> to run just those.
 * Groups: techniques, planner, float16, float16-accuracy (the built-in sample trained with and without
 * float16 storage: minutes on SwiftShader), listing, overhead (instrument cost), input-rate (pipeline
 * images/s against the step's), journey (the default journey in the app, timed), long-tasks (main-thread
 * long tasks during a Tiny run and a 1,000-file folder, in the production build), keras (planKeras against
 * TensorFlow's own allocator: a Keras 3 training step per configuration, in Python, minutes), lean (stock
 * tfjs and the lab's lean backward pass side by side, per family, fine-tune and frozen on the tape; cpu only).
 * --planner-family=<family>,<family> runs the planner group's rows of those families only (on cpu), e.g.
 * --only=planner --cpu-only --planner-family=EfficientNet-Lite0.
 */
const args = new Set(process.argv.slice(2));
const only = [...args]
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const group = (name: string) => (only ? only.includes(name) : !args.has(`--no-${name}`));
const techniques = group('techniques');
const planner = group('planner');
const float16 = group('float16');
const float16Accuracy = group('float16-accuracy');
const listing = group('listing');
const overhead = group('overhead');
const inputRate = group('input-rate');
const journey = group('journey');
const longTasks = group('long-tasks');
const keras = group('keras');
const lean = group('lean');
const plannerFamilies = [...args]
  .find((a) => a.startsWith('--planner-family='))
  ?.slice('--planner-family='.length)
  .split(',');
const print = (lines: string[]) => console.log(lines.join('\n'));

async function cpu(): Promise<void> {
  await tf.setBackend('cpu');
  if (planner) {
    console.log('\n## Planner accuracy — cpu backend (Node)\n');
    const rows = await plannerRows(plannerFamilies ? { families: plannerFamilies } : {});
    print(plannerTable(rows));
    print(plannerSummary(rows));
  }
  if (techniques) {
    console.log('\n## Memory-saving techniques — cpu backend (Node)\n');
    print(techniqueTable(await techniqueRows({})));
    console.log('\n## Input pipeline — cpu backend (Node)\n');
    print(techniqueTable(await inputRows({})));
  }
  if (float16) {
    console.log('\n## float16 storage, float32 math — cpu backend (Node)\n');
    print(techniqueTable(await float16Rows({})));
  }
  if (float16Accuracy) {
    console.log('\n## float16 storage, validation accuracy — cpu backend (Node)\n');
    print(techniqueTable(await float16AccuracyRows(await nodeSample(), 'cpu')));
  }
  if (keras) {
    console.log('\n## Keras column against TensorFlow 2.21 (Keras 3, CPU, BFC allocator peak)\n');
    print(kerasTable(kerasRows()));
  }
  if (lean) {
    console.log('\n## Lean backward vs stock tfjs — cpu backend (Node)\n');
    const rows = await leanRows((row) => console.log(leanLine(row)));
    print(leanSummary(rows));
  }
  if (overhead) {
    // 32 px: one MobileNetV2 fine-tune step at 64 px takes about 45 s on the cpu backend here.
    console.log('\n## Instrument overhead — cpu backend (Node)\n');
    const rows = await overheadRows({ size: 32, steps: 9 });
    print(techniqueTable(rows));
    console.log(hookCostLine(await hookCost(32), rows[0]?.a.stepMs));
  }
}

async function webgpu(): Promise<void> {
  const server = await createServer({
    root: process.cwd(),
    // No file watching or HMR: an edit in the working tree must not reload the page mid-bench.
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'error',
  });
  await server.listen();
  const address = server.resolvedUrls?.local[0] ?? '';
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') console.error(`[page] ${m.text()}`);
    });
    await page.goto(
      `${address}bench/index.html?techniques=${techniques ? 1 : 0}&planner=${planner ? 1 : 0}&float16=${float16 ? 1 : 0}&float16Accuracy=${float16Accuracy ? 1 : 0}&overhead=${overhead ? 1 : 0}&inputRate=${inputRate ? 1 : 0}`,
    );
    let shown = 0;
    for (;;) {
      const state = await page.evaluate(() => ({
        done: window.__bench,
        progress: window.__benchProgress ?? [],
      }));
      for (const line of state.progress.slice(shown)) console.log(`  [webgpu] ${line}`);
      shown = state.progress.length;
      if (state.done) {
        report(state.done);
        return;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

function report(result: BrowserBench): void {
  if (result.error) {
    console.log(`\nWebGPU rows not measured: ${result.error}`);
    return;
  }
  if (result.planner.length) {
    console.log(`\n## Planner accuracy — ${result.backend} (Chromium)\n`);
    print(plannerTable(result.planner));
    print(plannerSummary(result.planner));
  }
  if (result.techniques.length) {
    console.log(`\n## Memory-saving techniques — ${result.backend} (Chromium)\n`);
    print(techniqueTable(result.techniques));
  }
  if (result.float16.length) {
    console.log(`\n## float16 storage, float32 math — ${result.backend} (Chromium)\n`);
    print(techniqueTable(result.float16));
  }
  if (result.overhead.length) {
    console.log(`\n## Instrument overhead — ${result.backend} (Chromium)\n`);
    print(techniqueTable(result.overhead));
    if (result.hookCost) console.log(hookCostLine(result.hookCost, result.overhead[0]?.a.stepMs));
  }
  if (result.inputRate.length) {
    console.log(`\n## Input pipeline rate — ${result.backend} (Chromium)\n`);
    print(inputRateTable(result.inputRate, result.backend));
  }
  for (const check of result.float16Check)
    console.log(
      `\nfloat16 pack/unpack on ${check.backend}: ` +
        (check.mismatches.length === 0
          ? 'exact on every edge value'
          : `${check.mismatches.length} mismatches: ${JSON.stringify(check.mismatches.slice(0, 5))}`),
    );
}

if (!args.has('--webgpu-only')) await cpu();
// The browser half has no keras or Chromium-only group of its own to run: skip it when none is chosen.
const browserGroups = techniques || planner || float16 || float16Accuracy || overhead || inputRate;
if (!args.has('--cpu-only') && browserGroups) await webgpu();
if (journey && !args.has('--cpu-only')) {
  console.log('\n## Default journey — headless Chromium\n');
  print(journeyTable(await journeyRow()));
}
if (listing && !args.has('--cpu-only')) {
  console.log('\n## Listing a 20,000-file folder — headless Chromium\n');
  print(listingTable(await listingRow()));
}
if (longTasks && !args.has('--cpu-only')) {
  console.log('\n## Main-thread long tasks — a Tiny run and a 1,000-file folder, headless Chromium\n');
  print(longTaskTable(await longTaskRow()));
}
