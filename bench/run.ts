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
import { listingRow, listingTable } from './listing';

/**
 * `npm run bench`: every row is measured in this run, side by side. First on the cpu backend in Node,
 * then on WebGPU in headless Chromium (SwiftShader on machines without a GPU). Flags:
 * --cpu-only, --webgpu-only, --no-techniques, --no-planner, --no-float16, --no-listing.
 */
const args = new Set(process.argv.slice(2));
const techniques = !args.has('--no-techniques');
const planner = !args.has('--no-planner');
const float16 = !args.has('--no-float16');
const listing = !args.has('--no-listing');
const print = (lines: string[]) => console.log(lines.join('\n'));

async function cpu(): Promise<void> {
  await tf.setBackend('cpu');
  if (planner) {
    console.log('\n## Planner accuracy — cpu backend (Node)\n');
    const rows = await plannerRows();
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
      `${address}bench/index.html?techniques=${techniques ? 1 : 0}&planner=${planner ? 1 : 0}&float16=${float16 ? 1 : 0}`,
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
  for (const check of result.float16Check)
    console.log(
      `\nfloat16 pack/unpack on ${check.backend}: ` +
        (check.mismatches.length === 0
          ? 'exact on every edge value'
          : `${check.mismatches.length} mismatches: ${JSON.stringify(check.mismatches.slice(0, 5))}`),
    );
}

if (!args.has('--webgpu-only')) await cpu();
if (!args.has('--cpu-only')) await webgpu();
if (listing && !args.has('--cpu-only')) {
  console.log('\n## Listing a 20,000-file folder — headless Chromium\n');
  print(listingTable(await listingRow()));
}
