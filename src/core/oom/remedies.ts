import type { LayerNames } from '../model/layerTable';
import type { ModelSpec } from '../model/modelSpec';
import { fineTunedBackbone } from '../settings/trainable';
import type { OomDetails } from '../memory/oom';
import { microBatchSizes, planInput, planTfjs, type Plan } from '../planner/planner';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import { formatBytes } from '../format';
import { CARD_MAX_BYTES } from '../settings/schema';
import { maxOf } from '../extent';

/** One fix the user can apply with a click. */
export interface Remedy {
  /** Stable id for tests and keys. */ id: string;
  /** Short imperative title, with the concrete change. */ title: string;
  /** Why it helps, in one or two plain sentences (facts of the settings, never a prediction). */ why: string;
  /** The settings it changes. */ patch: Partial<TrainConfig>;
}

/** Three quarters of a side, rounded to a multiple of 8 (at least 8). */
function shrinkSide(side: number): number {
  return Math.max(8, Math.round((side * 0.75) / 8) * 8);
}

/** Micro-batch sizes in words: "8" when equal, "8 or 7" when the batch does not split evenly. */
function microWords(batch: number, steps: number): string {
  const sizes = [...new Set(microBatchSizes(batch, steps))];
  return sizes.join(' or ');
}

function halveBatch(config: TrainConfig): Remedy | null {
  if (config.batchSize <= 1) return null;
  const batchSize = Math.max(1, Math.floor(config.batchSize / 2));
  return {
    id: 'halve-batch',
    title: `Halve the batch: ${config.batchSize} → ${batchSize}`,
    why: 'Every activation kept for the backward pass holds one slice per image, so they shrink with the batch. Set on the data set, where it takes effect.',
    patch: { batchSize },
  };
}

function lowerResolution(config: TrainConfig): Remedy | null {
  const height = shrinkSide(config.height);
  const width = shrinkSide(config.width);
  if (height === config.height && width === config.width) return null;
  const share = Math.round(((height * width) / (config.height * config.width)) * 100);
  return {
    id: 'lower-resolution',
    title: `Lower the input size: ${config.height}×${config.width} → ${height}×${width}`,
    why: `Activation maps scale with height × width: ${height}×${width} has ${share}% of the pixels of ${config.height}×${config.width}.`,
    patch: { height, width },
  };
}

/** Counted on the model itself, so the fix always unfreezes fewer layers than the set that failed. */
function fewerLayers(
  config: TrainConfig,
  phase: TrainingPhase | null,
  spec: LayerNames | null,
): Remedy | null {
  const unfrozen = spec && phase === 'fine-tune' ? fineTunedBackbone(spec, config.fineTune).length : 0;
  if (unfrozen <= 1) return null;
  const n = Math.floor(unfrozen / 2);
  return {
    id: 'fewer-layers',
    title: `Unfreeze fewer layers: ${unfrozen} → the last ${n}`,
    why: 'Each trainable weight needs a gradient and two Adam slots. In tfjs the frozen layers still keep their activations on the tape, so this saves less than in Keras.',
    patch: { fineTune: { kind: 'last', n } },
  };
}

function accumulate(config: TrainConfig): Remedy | null {
  const t = config.techniques;
  const steps = t.accumulationSteps * 2;
  if (steps > config.batchSize) return null;
  return {
    id: 'accumulate',
    title: `Accumulate gradients: ${steps} micro-batches of ${microWords(config.batchSize, steps)}`,
    why: 'The optimizer still sees the whole batch of images, but activations are held for one micro-batch at a time.',
    patch: { techniques: { ...t, accumulationSteps: steps } },
  };
}

function checkpoint(config: TrainConfig, phase: TrainingPhase | null): Remedy | null {
  const t = config.techniques;
  if (phase !== 'fine-tune' || t.checkpointing !== 'off') return null;
  return {
    id: 'checkpoint',
    title: 'Checkpoint gradients per block',
    why: 'Keeps only block boundaries in the forward pass and recomputes each block in backward: one more forward pass for most of the activations.',
    patch: { techniques: { ...t, checkpointing: 'blocks' } },
  };
}

function outsideTape(config: TrainConfig, phase: TrainingPhase | null): Remedy | null {
  const t = config.techniques;
  if (phase !== 'frozen' || t.backboneOutsideTape) return null;
  return {
    id: 'outside-tape',
    title: 'Run the frozen backbone outside the gradient tape',
    why: 'tfjs keeps every taped activation until backprop ends, frozen layers too; outside the tape they are freed as soon as they are used.',
    patch: { techniques: { ...t, backboneOutsideTape: true } },
  };
}

function noPrefetch(config: TrainConfig): Remedy | null {
  if (config.prefetch <= 0) return null;
  return {
    id: 'no-prefetch',
    title: `Prefetch no batches ahead: ${config.prefetch} → 0`,
    why: 'Each prefetched batch is another [batch, height, width, 3] float32 tensor on the device while the current one trains.',
    patch: { prefetch: 0 },
  };
}

/**
 * Fixes for memory that ran out while the input batch was made: only what shrinks that batch helps
 * (the model had not run, so the tape, accumulation, checkpointing and the trainable set change nothing).
 */
function inputRemedies(oom: OomDetails, config: TrainConfig): Remedy[] {
  const ordered = [halveBatch(config), noPrefetch(config), lowerResolution(config), biggerCard(oom, config)];
  return ordered.filter((r): r is Remedy => r !== null);
}

function biggerCard(oom: OomDetails, config: TrainConfig): Remedy | null {
  if (oom.kind !== 'budget' || config.budgetBytes === null) return null;
  const budgetBytes = config.budgetBytes * 2;
  // A card past the settings' range would be refused when applied: no such fix is offered.
  if (budgetBytes > CARD_MAX_BYTES) return null;
  return {
    id: 'bigger-card',
    title: `Use a card twice as large: ${formatBytes(config.budgetBytes)} → ${formatBytes(budgetBytes)}`,
    why: 'Only possible on a simulated card; on a real one this means different hardware.',
    patch: { budgetBytes },
  };
}

/**
 * Fixes for a run that ran out of memory, most effective first for where it failed. While loading the
 * input batch, only what shrinks the batch helps (inputRemedies). Activations
 * (forward and backward) scale with batch × height × width, so those come first; gradients and Adam
 * slots scale with the trainable set. Each one changes a setting; `rankRemedies` adds the planner's
 * prediction for exactly the changed settings, and drops those the planner sees no change in.
 */
export function remediesFor(
  oom: OomDetails,
  config: TrainConfig,
  phase: TrainingPhase | null,
  /** The model's layers, to count the trainable set; null when not described yet. */
  spec: LayerNames | null,
): Remedy[] {
  if (oom.phase === 'input') return inputRemedies(oom, config);
  const activations = oom.phase === 'forward' || oom.phase === 'backward';
  const tape = outsideTape(config, phase);
  const batch = halveBatch(config);
  const micro = accumulate(config);
  const blocks = checkpoint(config, phase);
  const size = lowerResolution(config);
  const layers = fewerLayers(config, phase, spec);
  const ordered = activations
    ? [tape, batch, micro, blocks, size, layers]
    : [layers, tape, batch, micro, blocks, size];
  return [...ordered, biggerCard(oom, config)].filter((r): r is Remedy => r !== null);
}

/**
 * float16 storage as a fix, for a fine-tune step's model pass that does not use it yet: the checkpointed step with
 * its block boundaries packed as binary16 pairs (checkpointing turns on with it). Kept apart from
 * remediesFor's ordered list; the OOM panel adds it, and rankRemedies predicts it (the planner models
 * the packed boundaries) and drops it where the planner sees no change.
 */
export function precisionRemedies(
  oom: OomDetails,
  config: TrainConfig,
  phase: TrainingPhase | null,
): Remedy[] {
  const t = config.techniques;
  // While loading the input batch the model had not run: nothing it keeps changes that.
  if (oom.phase === 'input' || phase !== 'fine-tune' || t.float16Storage) return [];
  return [
    {
      id: 'float16-storage',
      title: 'Keep activations in float16 storage (float32 math)',
      why: `${FLOAT16_WORDS}: the checkpointed step keeps its block boundaries as float16 pairs, 2 bytes a value instead of 4, and unpacks them to float32 to recompute. Weights, gradients and Adam slots stay float32.${t.checkpointing === 'off' ? ' Turns per-block checkpointing on.' : ''}`,
      patch: { techniques: { ...t, float16Storage: true } },
    },
  ];
}

/** The exact words for what the lab's precision mode is, wherever the UI offers it. */
export const FLOAT16_WORDS = 'float16 storage, float32 math — tfjs has no float16 arithmetic';

/** The configuration a remedy leads to. */
export function applyRemedy(config: TrainConfig, remedy: Remedy): TrainConfig {
  return { ...config, ...remedy.patch };
}

/** The input sizes the remedies need a model description at, besides the current one. */
export function specsNeeded(
  remedies: readonly Remedy[],
  config: TrainConfig,
): { height: number; width: number }[] {
  const sizes = new Map<string, { height: number; width: number }>();
  for (const r of remedies) {
    const { height, width } = applyRemedy(config, r);
    if (height !== config.height || width !== config.width)
      sizes.set(`${height}×${width}`, { height, width });
  }
  return [...sizes.values()];
}

/** A remedy with the planner's peak for the phase that failed, once applied. */
export interface RankedRemedy {
  remedy: Remedy;
  /** The settings with the remedy applied: what the prediction is for. */ config: TrainConfig;
  /**
   * The planner's peak of one step of the failing phase for exactly those settings (tfjs model); null
   * until the model is described at the remedy's input size.
   */
  predictedBytes: number | null;
  /** The card after the remedy (a bigger card changes it), bytes; Infinity without one. */ limit: number;
  /** Whether the prediction is under that card; null when not predicted yet. */ fits: boolean | null;
}

/** The description of the model at a configuration's input size, among those at hand. */
export function specAt(
  specs: readonly ModelSpec[],
  c: Pick<TrainConfig, 'height' | 'width'>,
): ModelSpec | null {
  return specs.find((s) => s.height === c.height && s.width === c.width) ?? null;
}

/**
 * The remedies, each predicted by running the planner on the changed configuration (at a changed input
 * size with the model described at that size, from `specs`), ranked: predicted to fit first, then by
 * predicted peak, unpredicted last. A remedy whose prediction and card equal the failing step's changes
 * nothing the planner can see, and is not offered.
 */
export function rankRemedies(
  remedies: readonly Remedy[],
  specs: readonly ModelSpec[],
  config: TrainConfig,
  phase: TrainingPhase,
  limit: number,
): RankedRemedy[] {
  const current = specAt(specs, config);
  const failing = current ? planTfjs(planInput(current, config, phase)).peakBytes : null;
  const ranked = remedies.map((remedy): RankedRemedy => {
    const c = applyRemedy(config, remedy);
    const spec = specAt(specs, c);
    const after = remedy.patch.budgetBytes ?? limit;
    if (!spec) return { remedy, config: c, predictedBytes: null, limit: after, fits: null };
    const predictedBytes = planTfjs(planInput(spec, c, phase)).peakBytes;
    return { remedy, config: c, predictedBytes, limit: after, fits: predictedBytes <= after };
  });
  const rank = (r: RankedRemedy) => (r.fits === null ? 2 : r.fits ? 0 : 1);
  return ranked
    .filter((r) => !(r.predictedBytes === failing && r.limit === limit))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.predictedBytes ?? Number.POSITIVE_INFINITY) - (b.predictedBytes ?? Number.POSITIVE_INFINITY),
    );
}

/** What the planner claimed for a fix when it was applied, to show beside the measured outcome. */
export interface FixClaim {
  /** The planner's peak for one step of the failing phase with the fix. */ predictedBytes: number;
  /** Whether that peak is under the card after the fix. */ fits: boolean;
  /** That card, bytes (Infinity without one). */ limit: number;
}

/** The claim a predicted remedy makes, or undefined for one not predicted yet. */
export function fixClaim(ranked: RankedRemedy): FixClaim | undefined {
  if (ranked.predictedBytes === null || ranked.fits === null) return undefined;
  return { predictedBytes: ranked.predictedBytes, fits: ranked.fits, limit: ranked.limit };
}

/** A fix's claim read against what the run with it measured. */
export interface FixOutcomeWords {
  /** e.g. "claimed: fits, 61.2 MB predicted". */ claim: string;
  /** e.g. "measured: 60.8 MB, fits (−0.7%)": the measured peak against the claim. */ measured: string;
  /** Whether the measurement agrees with the claim on fitting; null before the first measured step. */
  kept: boolean | null;
  /** The highest measured step peak of the fix's phase, bytes; null before one. */ peakBytes: number | null;
}

/** Signed percent with a true minus sign, one decimal: "−0.7%", "+3.2%". */
function signedPercent(x: number): string {
  const text = Math.abs(x).toFixed(1);
  return `${x < 0 && text !== '0.0' ? '−' : '+'}${text}%`;
}

/**
 * The claim of an applied fix beside the measured step peak of the same phase: `batches` are the run's
 * steps (those without a measured peak are skipped), `ranOut` whether the run with the fix ran out again.
 */
export function fixOutcome(
  fix: FixClaim & { phase: TrainingPhase },
  batches: readonly { phase: TrainingPhase; peakBytes?: number }[],
  ranOut: boolean,
): FixOutcomeWords {
  const peaks = batches.filter((b) => b.phase === fix.phase).flatMap((b) => b.peakBytes ?? []);
  const peak = peaks.length > 0 ? maxOf(peaks) : null;
  const claim = `claimed: ${fix.fits ? 'fits' : 'does not fit'}, ${formatBytes(fix.predictedBytes)} predicted`;
  if (peak === null)
    return {
      claim,
      measured: `measured: ${ranOut ? 'ran out of memory again' : `waiting for the first ${fix.phase} step`}`,
      kept: ranOut ? !fix.fits : null,
      peakBytes: null,
    };
  const fits = !ranOut && (!Number.isFinite(fix.limit) || peak <= fix.limit);
  const verdict = Number.isFinite(fix.limit) || ranOut ? (fits ? ', fits' : ', does not fit') : '';
  const vsClaim = signedPercent(((peak - fix.predictedBytes) / fix.predictedBytes) * 100);
  return {
    claim,
    measured: `measured: ${formatBytes(peak)}${verdict} (${vsClaim})`,
    kept: fits === fix.fits,
    peakBytes: peak,
  };
}

/** The planner's categories in the order a training step brings them alive. */
export const ALLOCATION_ORDER: readonly (keyof Plan['categories'])[] = [
  'weights',
  'optimizer',
  'input',
  'gradients',
  'savedActivations',
  'transient',
];

/**
 * Which category pushed the predicted step over the limit: the planner's categories added in the order
 * they come alive (weights, optimizer slots, input, gradients, saved activations, the rest), and the
 * first that crosses. Null when the prediction stays under the limit.
 */
export function crossingCategory(plan: Plan, limit: number): keyof Plan['categories'] | null {
  let total = 0;
  for (const key of ALLOCATION_ORDER) {
    total += plan.categories[key];
    if (total > limit) return key;
  }
  return null;
}
