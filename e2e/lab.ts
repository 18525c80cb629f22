// Shared steps of the e2e journeys. State is read through window.__lab, which only e2e and dev
// builds contain; actions go through the page like a user's.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** A JSON-safe view of the store for assertions. */
export interface LabSnapshot {
  config: { fineTune: { kind: string; n?: number; block?: string; names?: string[] }; batchSize: number };
  engine: {
    status: string;
    backend: { name: string; inWorker: boolean; adapter?: { architecture: string } } | null;
  };
  dataset: {
    status: string;
    scan: { classes: { name: string; count: number }[]; skipped: { path: string; reason: string }[] } | null;
  };
  run: {
    status: string;
    error: string | null;
    batches: {
      phase: string;
      epoch: number;
      loss: number;
      peakBytes?: number;
      profile?: { peakBytes: number; newTensors: number; kernelCount: number };
      technique: { mode: string; microBatches: number; featureCache: 'filling' | 'reading' | null };
      lossScale: { scale: number; nextScale: number; skipped: boolean; skippedSteps: number } | null;
    }[];
    epochs: { phase: string; valLoss: number; valAccuracy: number }[];
    phases: { phase: string; t: number; trainableParams: number; batchesPerEpoch: number }[];
    backend: string | null;
  };
  log: { level: string; message: string }[];
  memory: { samples: { t: number; liveBytes: number }[]; markers: { t: number; label: string }[] };
  sweep: {
    status: string;
    points: {
      status: 'measured' | 'oom' | 'skipped';
      presetId: string;
      batch: number;
      size: number;
      peakBytes?: number;
      predictedBytes?: number;
      kerasBytes?: number;
      kerasMixedBytes?: number;
    }[];
    largest: {
      status: string;
      batch: number | null;
      tried: { batch: number; fits: boolean }[];
      predicted: number | null;
    };
  };
}

export async function snapshot(page: Page): Promise<LabSnapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __lab: { store: { getState(): unknown } } }).__lab.store.getState();
    return JSON.parse(JSON.stringify(s)) as never;
  });
}

/**
 * One value of the store by its path ('run.status', 'run.batches.length'), read in the page without
 * copying the rest. For polls: mid-run the whole store holds every memory sample, batch record and
 * diagnostics thumbnail, and serialising all of it twice a second takes the page's main thread and the
 * test worker away from the training they share two cores with.
 */
export async function storeValue<T = unknown>(page: Page, path: string): Promise<T> {
  return page.evaluate((keys) => {
    let v: unknown = (
      window as unknown as { __lab: { store: { getState(): unknown } } }
    ).__lab.store.getState();
    for (const k of keys) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k];
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as never);
  }, path.split('.')) as Promise<T>;
}

/**
 * Opens the lab (with a link's query, e.g. '?aug=flip', when given) and waits until its engine has
 * picked a backend.
 */
export async function openLab(page: Page, query = ''): Promise<void> {
  page.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  await page.goto(`/${query}`);
  await expect.poll(async () => storeValue(page, 'engine.status'), { timeout: 60_000 }).toBe('ready');
}

/**
 * The lab's views (src/core/settings/views.ts), and what a journey finds in each:
 * - data: the folder and sample buttons, the class table, augmented samples, augmentation and split;
 * - model: the workshop preset, architecture, weights, size, batch, techniques, the layer explorer;
 * - memory: the card (budget-select, budget-mb, precise-profile), the planner with every column, its
 *   verdict and batch curve, the memory timeline;
 * - train: the run panel, the OOM panel and its fixes, loss and accuracy, the phases (epochs, learning
 *   rates, unfreeze-last-n, prefetch), the log;
 * - results: results and exports, the run history;
 * - experiments: the sweep, the largest-batch search, the precision experiment, the remedy cards;
 * - workshop: the lesson plan, the lessons, the class results.
 * The run bar (Train, Stop, the predicted peaks, the run's headline) and the workshop bar (mode, Copy
 * link, the link notice) are on every view; on model and train the planner and the timeline stand
 * beside the controls (the tfjs columns only).
 */
export type View = 'data' | 'model' | 'memory' | 'train' | 'results' | 'experiments' | 'workshop';

/** Shows a view by its tab, as a user does, and waits until it is drawn. */
export async function goTo(page: Page, view: View): Promise<void> {
  const tab = page.getByTestId(`view-tab-${view}`);
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId(`view-${view}`)).toBeVisible();
}

/** Opens a remedy card in the experiments view (a closed card is its title only). */
export async function openCard(page: Page, id: string): Promise<void> {
  await goTo(page, 'experiments');
  const toggle = page.getByTestId(`experiment-${id}-toggle`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** Settings small enough for SwiftShader: the tiny EfficientNet, 32×32 unless told otherwise. */
export async function useTinySettings(
  page: Page,
  opts: {
    size?: number;
    batchSize?: number;
    frozenEpochs?: number;
    fineTuneEpochs?: number;
    unfreezeLastN?: number;
  } = {},
): Promise<void> {
  const view = await storeValue<View>(page, 'nav.view');
  await goTo(page, 'model');
  await page.getByTestId('model-select').selectOption('tiny');
  await page.getByTestId('height').fill(String(opts.size ?? 32));
  await page.getByTestId('width').fill(String(opts.size ?? 32));
  await page.getByTestId('batch-size').fill(String(opts.batchSize ?? 16));
  await goTo(page, 'train');
  await page.getByTestId('frozen-epochs').fill(String(opts.frozenEpochs ?? 1));
  await page.getByTestId('fine-tune-epochs').fill(String(opts.fineTuneEpochs ?? 1));
  await page.getByTestId('unfreeze-last-n').fill(String(opts.unfreezeLastN ?? 1000));
  await goTo(page, view);
}

/** Waits for a run to end and returns how it ended. */
export async function waitForRunEnd(page: Page, timeout = 420_000): Promise<string> {
  await expect
    .poll(async () => storeValue(page, 'run.status'), { timeout, intervals: [500, 1000] })
    .toMatch(/^(completed|stopped|oom|failed)$/);
  return storeValue<string>(page, 'run.status');
}

/** Loads the built-in sample and waits until its three classes are listed. */
export async function loadSample(page: Page): Promise<void> {
  await goTo(page, 'data');
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  for (const name of ['circles', 'squares', 'triangles'])
    await expect(page.getByTestId('class-table')).toContainText(name);
}

/** Proves the lab still trains on WebGPU: one frozen epoch of the tiny model on the sample. */
export async function trainOneEpochOnWebGPU(page: Page): Promise<void> {
  await loadSample(page);
  await useTinySettings(page, { frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  expect((await snapshot(page)).run.backend).toBe('webgpu');
}

/** Serious and critical accessibility violations axe finds on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
