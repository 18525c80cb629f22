/**
 * The verdict on one configuration and one card, before anything runs: for tfjs here, Keras/CUDA in
 * float32 and Keras in mixed float16, whether a training step fits and by how much (the planner's peak),
 * the layer at which the forward pass's running total crosses the card, and the largest batch that fits
 * (the planner again, searched from 1 to 4096).
 */
import { product, type LayerSpec, type ModelSpec } from '../model/modelSpec';
import {
  microBatchSizes,
  planInput,
  planKeras,
  planTfjs,
  type Plan,
  type PlanInput,
} from '../planner/planner';
import { fineTunedBackbone } from '../settings/trainable';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import { formatBytes } from '../format';
import { maxOf } from '../extent';

export type VerdictColumn = 'tfjs' | 'keras-fp32' | 'keras-fp16';

export const VERDICT_COLUMNS: readonly VerdictColumn[] = ['tfjs', 'keras-fp32', 'keras-fp16'];

export const COLUMN_LABELS: Record<VerdictColumn, string> = {
  tfjs: 'tfjs here',
  'keras-fp32': 'Keras/CUDA float32',
  'keras-fp16': 'Keras mixed float16',
};

/** The largest batch the search tries. */
export const MAX_VERDICT_BATCH = 4096;

export interface ColumnVerdict {
  column: VerdictColumn;
  /** The planner's peak of one step at the configured batch. */ peakBytes: number;
  /** Whether that peak is within the card. */ fits: boolean;
  /** Peak as a multiple of the card (1.5: half again as much as the card holds). */ ratio: number;
  /** Where the forward pass's running total first passes the card; null when it never does. */
  crossing: { layer: string; index: number; runningBytes: number } | null;
  /** The largest batch from 1 to 4096 whose predicted peak fits; 0 when not even batch 1 does. */
  largestBatch: number;
}

export interface Verdict {
  phase: TrainingPhase;
  /** Layers of the model, to say how deep a crossing is. */ layerCount: number;
  /** The card, bytes. */ limit: number;
  batch: number;
  columns: ColumnVerdict[];
}

function columnPlan(input: PlanInput, column: VerdictColumn): Plan {
  if (column === 'tfjs') return planTfjs(input);
  return planKeras(input, column === 'keras-fp16' ? 'mixed_float16' : 'float32');
}

/** Whether a gradient reaches each layer: it trains, or an input of it is on the path (as the planner walks it). */
function onGradientPath(spec: ModelSpec, trainable: ReadonlySet<string>): Set<string> {
  const path = new Set<string>();
  for (const l of spec.layers) {
    const trains = trainable.has(l.name) && l.trainableWeightSizes.length > 0;
    if (trains || l.inputs.some((n) => path.has(n))) path.add(l.name);
  }
  return path;
}

/** Kinds whose gradient reads the layer's input, in Keras (the planner's Keras rule). */
const KERAS_KEEPS_INPUT = new Set<LayerSpec['kind']>([
  'conv2d',
  'depthwiseConv2d',
  'batchNormalization',
  'activation',
  'multiply',
  'dense',
]);

/**
 * The forward pass's running total, layer by layer, and the first layer where it passes the card.
 * The planner reports a step's peak, not a forward timeline, so this walks the spec's own shapes:
 * it starts from the planner's weights, optimizer slots and input batch, then adds what each layer
 * leaves alive. In tfjs the forward pass runs in one tidy, so every layer output stays, and a taped
 * layer also keeps a copy of its inputs for backward; a backbone outside the tape frees each output
 * once used. In Keras only layers on the gradient path keep what their gradient reads (float16 in
 * mixed precision). The layer's own output (and in Keras its inputs) is counted while it runs.
 * Weight clones and activation internals are left out: for tfjs every recipe of the planner saves at
 * least a layer's inputs, so this stays at or under the planner's forward pass. With accumulation the
 * walk is for one micro-batch; with block checkpointing the forward runs outside the tape (only block
 * boundaries stay), so every output is freed once used. `seedVerdict` looks for a crossing only in
 * columns the planner says do not fit.
 */
export function forwardCrossing(
  input: PlanInput,
  column: VerdictColumn,
  base: number,
  limit: number,
): { layer: string; index: number; runningBytes: number } | null {
  const { spec, trainable } = input;
  const batch = maxOf(microBatchSizes(input.batch, input.accumulationSteps ?? 1));
  const checkpointed = input.checkpointing === 'blocks' && !input.backboneOutsideTape;
  const act = column === 'keras-fp16' ? 2 : 4;
  const path = onGradientPath(spec, trainable);
  const backbone = new Set(spec.layers.slice(0, spec.backboneLayerCount).map((l) => l.name));
  let kept = base;
  for (const [index, l] of spec.layers.entries()) {
    if (l.kind === 'input') continue;
    const I = l.inputShapes.reduce((n, s) => n + product(s), 0) * batch * act;
    const O = product(l.outputShape) * batch * act;
    let keeps: number;
    let running: number;
    if (column === 'tfjs') {
      const outside = checkpointed || (input.backboneOutsideTape && backbone.has(l.name));
      keeps = outside ? 0 : O + I;
      running = kept + (outside ? I + O : O);
    } else {
      const onPath = path.has(l.name);
      const activated = l.kind === 'conv2d' && l.activation !== undefined && l.activation !== 'linear';
      const saved = KERAS_KEEPS_INPUT.has(l.kind) ? I + (activated ? O : 0) : l.kind === 'dropout' ? O : 0;
      keeps = onPath ? saved : 0;
      running = kept + I + O;
    }
    if (running > limit) return { layer: l.name, index, runningBytes: running };
    kept += keeps;
  }
  return null;
}

/**
 * The largest batch from 1 to `MAX_VERDICT_BATCH` whose predicted peak fits; 0 when batch 1 does not.
 * The planner's peak grows with the batch, piecewise linearly (the largest of a few candidates, each
 * affine in the batch), so a secant through batch 1 lands near the answer in a few plans of a large
 * model; bisection between the last batch that fitted and the first that did not finishes it.
 */
export function largestFittingBatch(
  spec: ModelSpec,
  config: TrainConfig,
  phase: TrainingPhase,
  column: VerdictColumn,
  limit: number,
): number {
  const peak = (b: number) =>
    columnPlan(planInput(spec, { ...config, batchSize: b }, phase), column).peakBytes;
  const p1 = peak(1);
  if (p1 > limit) return 0;
  let lo = 1;
  let hi = MAX_VERDICT_BATCH + 1;
  let guess = 2;
  for (let i = 0; i < 8 && hi - lo > 1; i++) {
    const b = Math.min(hi - 1, Math.max(lo + 1, guess));
    const p = peak(b);
    if (p <= limit) lo = b;
    else hi = b;
    guess = p > p1 ? Math.floor(1 + ((limit - p1) * (b - 1)) / (p - p1)) : hi - 1;
    if (p <= limit && guess <= lo) guess = lo * 2;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (peak(mid) <= limit) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The verdict for each column on a card of `limit` bytes. */
export function seedVerdict(
  spec: ModelSpec,
  config: TrainConfig,
  phase: TrainingPhase,
  limit: number,
): Verdict {
  const input = planInput(spec, config, phase);
  const columns = VERDICT_COLUMNS.map((column): ColumnVerdict => {
    const plan = columnPlan(input, column);
    const k = plan.categories;
    const fits = plan.peakBytes <= limit;
    return {
      column,
      peakBytes: plan.peakBytes,
      fits,
      ratio: plan.peakBytes / limit,
      crossing: fits ? null : forwardCrossing(input, column, k.weights + k.optimizer + k.input, limit),
      largestBatch: largestFittingBatch(spec, config, phase, column, limit),
    };
  });
  return { phase, layerCount: spec.layers.length, limit, batch: config.batchSize, columns };
}

/** The trainable set of a phase as the verdict names it, counted on the model as `layers[-N:]` counts. */
export function trainableWords(spec: ModelSpec, config: TrainConfig, phase: TrainingPhase): string {
  if (phase === 'frozen') return 'head only (frozen phase)';
  const unfrozen = fineTunedBackbone(spec, config.fineTune).length;
  const backbone = spec.backboneLayerCount - 1;
  if (unfrozen === 0) return 'head only';
  return unfrozen === backbone ? 'all layers' : `${unfrozen} of ${backbone} backbone layers`;
}

const times = (ratio: number) => `${Number(ratio.toPrecision(3))}×`;

/** One column in words, e.g. "tfjs here needs 330 GB (20.6× the card)". */
export function columnWords(c: ColumnVerdict, limit: number): string {
  const label = COLUMN_LABELS[c.column];
  return c.fits
    ? `${label} fits: ${formatBytes(c.peakBytes)}, ${formatBytes(limit - c.peakBytes)} to spare`
    : `${label} needs ${formatBytes(c.peakBytes)} (${times(c.ratio)} the card, ${formatBytes(c.peakBytes - limit)} over)`;
}

/** The verdict's headline: what was asked, and whether it fits anywhere. */
export function headlineWords(v: Verdict, what: string): string {
  const card = `a ${formatBytes(v.limit)} card`;
  const fitting = v.columns.filter((c) => c.fits).map((c) => COLUMN_LABELS[c.column]);
  if (fitting.length === v.columns.length) return `${what}: fits ${card} in every column.`;
  if (fitting.length === 0) return `${what}: does not fit ${card} in any column.`;
  return `${what}: does not fit ${card} in ${v.columns.length - fitting.length} of ${v.columns.length} columns; fits in ${fitting.join(' and ')}.`;
}

/** Where each column's forward pass crosses the card, grouped by layer. */
export function crossingWords(v: Verdict): string {
  const over = v.columns.filter((c) => !c.fits);
  if (over.length === 0) return 'No column crosses the card.';
  const parts = over.map((c) =>
    c.crossing
      ? `at ${c.crossing.layer} in ${COLUMN_LABELS[c.column]} (layer ${c.crossing.index} of ${v.layerCount})`
      : `only after the forward pass in ${COLUMN_LABELS[c.column]} (backward or the update)`,
  );
  return `The forward pass crosses ${formatBytes(v.limit)} ${parts.join('; ')}.`;
}

/** The largest batch per column in words. */
export function largestWords(v: Verdict): string {
  const parts = v.columns.map((c) =>
    c.largestBatch === 0
      ? `none in ${COLUMN_LABELS[c.column]} (not even batch 1)`
      : `${c.largestBatch === MAX_VERDICT_BATCH ? `${MAX_VERDICT_BATCH} or more` : c.largestBatch} in ${COLUMN_LABELS[c.column]}`,
  );
  return `Largest batch that fits: ${parts.join(', ')}.`;
}
