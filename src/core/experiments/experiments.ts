/**
 * The Experiments view's cards: the seed case of OOM-CONTEXT.md first, then one card per remedy (1–11),
 * each saying what it changes and why that saves memory with the arithmetic done on the current model
 * and settings, the "before" and "after" settings it runs (derived from the current ones), and, for what
 * tfjs cannot do for real, what it shows instead. Pure data; the view runs the pairs.
 */
import { DEFAULT_AUGMENT } from '../data/augment';
import { count, formatBytes } from '../format';
import type { ModelSpec } from '../model/modelSpec';
import { ceilMB, highestPeak, largestFittingBatch, planPhase, specFits, type PoolVsLive } from './math';
import { fineTunedBackbone } from '../settings/trainable';
import type { TrainConfig } from '../settings/trainConfig';
import { remedyCards } from './remedyCards';

export type ExperimentId =
  | 'seed'
  | 'unfreeze-top'
  | 'mixed-precision'
  | 'smaller-batch'
  | 'memory-growth'
  | 'memory-limit'
  | 'clear-session'
  | 'lower-resolution'
  | 'input-pipeline'
  | 'accumulate'
  | 'lighter-blocks'
  | 'diagnose';

/** Two configurations to measure one after the other. */
export interface ExperimentPair {
  before: TrainConfig;
  after: TrainConfig;
  /** What each side is, in a few words. */ beforeLabel: string;
  afterLabel: string;
}

export interface ExperimentCard {
  id: ExperimentId;
  /** The remedy's number in OOM-CONTEXT.md; null for the seed case. */ remedy: number | null;
  title: string;
  /** What the remedy changes. */ changes: string;
  /** Why that saves memory. */ why: string;
  /** The arithmetic on the current model and settings, one line each. */ arithmetic: string[];
  /** real: tfjs does it; partial: the lab shows part of it (see `limitation`); cannot: only explained. */
  tfjs: 'real' | 'partial' | 'cannot';
  /** What tfjs cannot do, said plainly; null when it can do all of it. */ limitation: string | null;
  /** The settings measured before and after; null when nothing can be run for this card now. */
  pair: ExperimentPair | null;
  /** Why there is no pair, when there is none. */ noRun: string | null;
  /** A control the card offers besides its pair: set the seed case, or release everything. */
  extra: 'seed' | 'release' | null;
}

/** What the cards are computed from. */
export interface ExperimentContext {
  config: TrainConfig;
  /** The planner's description of the configured model at the configured size; null before it exists. */
  spec: ModelSpec | null;
  /** The last run's pool against live bytes; null before a run, or on a backend without a pool. */
  pool: PoolVsLive | null;
}

/** The seed case: EfficientNetV2-L at 300×500, batch 28, every layer fine-tuned, on a 16 GB card. */
export const SEED_CONFIG: Partial<TrainConfig> = {
  model: 'v2-l',
  weights: 'random',
  height: 300,
  width: 500,
  batchSize: 28,
  frozenEpochs: 10,
  fineTuneEpochs: 10,
  frozenLearningRate: 1e-3,
  fineTuneLearningRate: 1e-4,
  fineTune: { kind: 'all' },
  augment: DEFAULT_AUGMENT,
  budgetBytes: 16e9,
};

/** Whether the settings are the seed case (the fields SEED_CONFIG sets that memory depends on). */
export function isSeedCase(c: TrainConfig): boolean {
  return (
    c.model === 'v2-l' &&
    c.height === 300 &&
    c.width === 500 &&
    c.batchSize === 28 &&
    c.fineTune.kind === 'all' &&
    c.budgetBytes === 16e9
  );
}

/** The share of the card the fix's predicted peak may use. */
const FIX_MARGIN = 0.95;

/** A model is "small" for the seed story when a full fine-tune step is predicted under this. */
const SMALL_SCALE_BYTES = 2e9;

/** The seed case at full size, predicted, when the settings are the seed case and the model is described. */
function seedPrediction(ctx: ExperimentContext): string[] {
  const { config, spec } = ctx;
  if (!isSeedCase(config) || !specFits(spec, config))
    return [
      'Full size, predicted without running: press “Set the seed case” and the planner describes EfficientNetV2-L at 300×500 (built with zero weights, never trained) and predicts its steps.',
    ];
  const frozen = planPhase(spec, config, 'frozen').peakBytes;
  const fine = planPhase(spec, config, 'fine-tune').peakBytes;
  return [
    `Full size, predicted: the frozen step needs ${formatBytes(frozen)} and the fine-tune step of all ${count(fineTunedBackbone(spec, config.fineTune).length)} backbone layers ${formatBytes(fine)} in tfjs, on a ${formatBytes(16e9)} card: ${fine > 16e9 ? `${(fine / 16e9).toFixed(1)}× the card` : 'within the card'}.`,
  ];
}

/**
 * The same story at small scale: every layer fine-tuned on a simulated card half-way between the
 * predicted frozen and fine-tune peaks (frozen fits, fine-tune does not), then the batch the planner
 * says fits, set where it takes effect.
 */
function seedPair(ctx: ExperimentContext): {
  pair: ExperimentPair | null;
  lines: string[];
  noRun: string | null;
} {
  const { config, spec } = ctx;
  if (!specFits(spec, config))
    return { pair: null, lines: [], noRun: 'Waiting for the planner to describe the model.' };
  const base: TrainConfig = {
    ...config,
    fineTune: { kind: 'all' },
    frozenEpochs: Math.max(1, config.frozenEpochs),
    fineTuneEpochs: Math.max(1, config.fineTuneEpochs),
    budgetBytes: null,
  };
  const frozen = planPhase(spec, base, 'frozen').peakBytes;
  const fine = planPhase(spec, base, 'fine-tune').peakBytes;
  if (fine > SMALL_SCALE_BYTES)
    return {
      pair: null,
      lines: [],
      noRun: `At small scale: choose a small model and size first (e.g. EfficientNet-Tiny at 32×32); this one's fine-tune step is predicted at ${formatBytes(fine)}.`,
    };
  const card = ceilMB((frozen + fine) / 2);
  if (fine <= card || frozen > card)
    return {
      pair: null,
      lines: [],
      noRun: 'The frozen and fine-tune peaks are too close for a card between them.',
    };
  const before = { ...base, budgetBytes: card };
  // A 5% margin under the card: the fix must fit when measured, not only on paper.
  const batch = largestFittingBatch(spec, before, card * FIX_MARGIN, config.batchSize);
  const lines = [
    `At small scale, on a simulated ${formatBytes(card)} card: frozen ${formatBytes(frozen)} fits, fine-tuning every layer needs ${formatBytes(fine)} and runs out, naming the layer.`,
    'Keras: model.fit(ds, batch_size=1) on a data set already batched with .batch(28) still steps 28 images: fit() ignores batch_size for a dataset. Here the batch is the data set’s, so changing it takes effect.',
  ];
  if (batch === 0)
    return { pair: null, lines, noRun: `Not even batch 1 is predicted to fit ${formatBytes(card)}.` };
  lines.push(
    `The fix that works: batch ${config.batchSize} → ${batch} on the data set, predicted ${formatBytes(highestPeak(spec, { ...before, batchSize: batch }))}.`,
  );
  return {
    pair: {
      before,
      after: { ...before, batchSize: batch },
      beforeLabel: `all layers, batch ${config.batchSize}, ${formatBytes(card)} card`,
      afterLabel: `batch ${batch} set on the data set`,
    },
    lines,
    noRun: null,
  };
}

function seedCard(ctx: ExperimentContext): ExperimentCard {
  const small = seedPair(ctx);
  return {
    id: 'seed',
    remedy: null,
    title: 'The seed case: EfficientNetV2-L at 300×500, batch 28, all layers, 16 GB',
    changes:
      'Phase 1 trains the head on a frozen backbone; phase 2 unfreezes every layer and dies in its first step.',
    why: 'Unfreezing adds a gradient and two Adam slots per weight and keeps every activation for the backward pass; lowering batch_size in fit() changes nothing, because the data set was batched already.',
    arithmetic: [...seedPrediction(ctx), ...small.lines],
    tfjs: 'real',
    limitation: null,
    pair: small.pair,
    noRun: small.noRun,
    extra: 'seed',
  };
}

/** Every card, the seed case first, then the remedies in OOM-CONTEXT.md's order. */
export function experimentCards(ctx: ExperimentContext): ExperimentCard[] {
  return [seedCard(ctx), ...remedyCards(ctx)];
}
