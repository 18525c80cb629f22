/**
 * The layer explorer's model: one row per layer, rows grouped by Keras block, parameter totals for a
 * trainable set, and the shortcuts that produce a new trainable set. A trainable set holds layer names,
 * like `layer.trainable = True` in Keras; the head (layers from `spec.backboneLayerCount` on) always trains.
 */
import { layerParams, trainableLayers, type LayerSpec, type ModelSpec } from './modelSpec';

/** What the trainable-set shortcuts need of a model: its name, its layers' names and where the head starts. */
export type LayerNames = Pick<ModelSpec, 'name' | 'backboneLayerCount'> & {
  layers: readonly { name: string }[];
};

const BLOCK = /^(block\d+[a-z]|block_\d+|expanded_conv)_/;
const STEM = /^(stem_(conv_pad|conv|bn|activation)|Conv1|bn_Conv1|Conv1_relu)$/;
const TOP = /^(top_(conv|bn|activation)|Conv_1|Conv_1_bn|out_relu)$/;
const PREPROCESSING = /^(rescaling|normalization)(_\d+)?$/;
const HEAD = /^(avg_pool|max_pool|top_dropout|predictions|global_average_pooling2d|head_.+)$/;

/** The prefix of a graph model's nodes as the planner and the layer explorer name them (one block). */
export const GRAPH_LAYER = 'graph_backbone';

/**
 * The block a layer belongs to, from its Keras name: 'input', 'preprocessing', 'stem', a block such as
 * 'block3b' (EfficientNet) or 'block_5' / 'expanded_conv' (MobileNetV2), 'top' (the last conv), 'head' (the
 * classifier), 'graph' (a graph model's nodes), or 'other' for names no keras.applications model uses.
 */
export function layerBlock(name: string): string {
  const block = BLOCK.exec(name)?.[1];
  if (block !== undefined) return block;
  if (name === 'input_layer' || /^input_\d+$/.test(name)) return 'input';
  if (PREPROCESSING.test(name)) return 'preprocessing';
  if (STEM.test(name)) return 'stem';
  if (TOP.test(name)) return 'top';
  if (HEAD.test(name)) return 'head';
  if (name.startsWith(`${GRAPH_LAYER}/`)) return 'graph';
  return 'other';
}

export interface LayerRow {
  name: string;
  /** tfjs class name, e.g. 'Conv2D'. */
  className: string;
  /** Keras block, see `layerBlock`. */
  block: string;
  /** Output shape for one example at the spec's resolution (no batch dimension). */
  outputShape: number[];
  /** All parameters, as Keras counts them: trainable weights plus fixed ones. */
  params: number;
  /** Parameters that never train: BatchNorm moving statistics, Normalization mean and variance. */
  fixedParams: number;
  /** Parameters that train under the given set: the layer's trainable weights if it is in the set, else 0. */
  trainableParams: number;
  /** Whether the layer has weights that train when it is trainable; for the others the flag changes nothing. */
  canTrain: boolean;
  /** Part of the head, which always trains. */
  inHead: boolean;
  isBatchNorm: boolean;
  /** In the trainable set. */
  trainable: boolean;
}

export type TrainState = 'all' | 'some' | 'none';

export interface LayerGroup {
  block: string;
  /** Rows in model order. */
  rows: LayerRow[];
  params: number;
  /** Parameters of the group that train under the set. */
  trainableParams: number;
  /** Of the group's layers that can train: whether all, some or none are trainable ('none' if it has none). */
  state: TrainState;
  /** Whether `toggleBlock` changes anything: the group has backbone layers that can train. */
  toggleable: boolean;
}

export interface ParamTotals {
  params: number;
  trainable: number;
  /** Everything else, as Keras' "Non-trainable params": frozen weights plus all fixed ones. */
  frozen: number;
  /** Layers in the set with weights that train. */
  trainableLayers: number;
  /** Layers with weights that can train. */
  layersWithWeights: number;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function row(layer: LayerSpec, index: number, spec: ModelSpec, trainable: ReadonlySet<string>): LayerRow {
  const learnable = sum(layer.trainableWeightSizes);
  const inSet = trainable.has(layer.name);
  return {
    name: layer.name,
    className: layer.className,
    block: layerBlock(layer.name),
    outputShape: layer.outputShape,
    params: layerParams(layer),
    fixedParams: sum(layer.fixedWeightSizes),
    trainableParams: inSet ? learnable : 0,
    canTrain: learnable > 0,
    inHead: index >= spec.backboneLayerCount,
    isBatchNorm: layer.kind === 'batchNormalization',
    trainable: inSet,
  };
}

/** One row per layer, in model order. */
export function layerRows(spec: ModelSpec, trainable: ReadonlySet<string>): LayerRow[] {
  return spec.layers.map((layer, i) => row(layer, i, spec, trainable));
}

function trainState(rows: readonly LayerRow[]): TrainState {
  const weighted = rows.filter((r) => r.canTrain);
  const on = weighted.filter((r) => r.trainable).length;
  if (on === 0) return 'none';
  return on === weighted.length ? 'all' : 'some';
}

/** Rows grouped by block, blocks in the order they first appear, with per-group totals. */
export function groupRows(rows: readonly LayerRow[]): LayerGroup[] {
  const byBlock = new Map<string, LayerRow[]>();
  for (const r of rows) {
    const group = byBlock.get(r.block);
    if (group) group.push(r);
    else byBlock.set(r.block, [r]);
  }
  return [...byBlock].map(([block, members]) => ({
    block,
    rows: members,
    params: sum(members.map((r) => r.params)),
    trainableParams: sum(members.map((r) => r.trainableParams)),
    state: trainState(members),
    toggleable: members.some((r) => r.canTrain && !r.inHead),
  }));
}

/** Trainable and frozen parameters, and how many layers train. */
export function paramTotals(rows: readonly LayerRow[]): ParamTotals {
  const params = sum(rows.map((r) => r.params));
  const trainable = sum(rows.map((r) => r.trainableParams));
  return {
    params,
    trainable,
    frozen: params - trainable,
    trainableLayers: rows.filter((r) => r.canTrain && r.trainable).length,
    layersWithWeights: rows.filter((r) => r.canTrain).length,
  };
}

/** The head and the last `n` backbone layers, counted over every layer (`base_model.layers[-n:]`). */
export function unfreezeLastN(spec: LayerNames, n: number): Set<string> {
  return trainableLayers(spec, 'fine-tune', n);
}

/** Only the head: the whole backbone frozen. */
export function freezeBackbone(spec: LayerNames): Set<string> {
  return trainableLayers(spec, 'frozen', 0);
}

/** Every layer, as `base_model.trainable = True`. */
export function unfreezeAll(spec: LayerNames): Set<string> {
  return new Set(spec.layers.map((l) => l.name));
}

/** Whether `block` names the layer's block ('block5a', 'block_13', 'top') or its stage ('block5'). */
function inBlockOrStage(name: string, block: string): boolean {
  const own = layerBlock(name);
  return own === block || (/^block\d+$/.test(block) && own.slice(0, -1) === block);
}

/** Whether the model has `block` (a block or an EfficientNet stage, as `unfreezeFromBlock` takes). */
export function hasBlock(spec: LayerNames, block: string): boolean {
  return spec.layers.some((l) => inBlockOrStage(l.name, block));
}

/**
 * The head and every layer from the first layer of `block` on. `block` is a block as `layerBlock` names it
 * ('block5a', 'block_13', 'top') or an EfficientNet stage ('block5', which starts at 'block5a'). Throws a
 * RangeError for a block the model does not have.
 */
export function unfreezeFromBlock(spec: LayerNames, block: string): Set<string> {
  const first = spec.layers.findIndex((l) => inBlockOrStage(l.name, block));
  if (first < 0) throw new RangeError(`${spec.name} has no block '${block}'`);
  const from = Math.min(first, spec.backboneLayerCount);
  return new Set(spec.layers.slice(from).map((l) => l.name));
}

/** The set with `name` added if it was absent, removed if present. */
export function toggleLayer(set: ReadonlySet<string>, name: string): Set<string> {
  const next = new Set(set);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}

/**
 * Makes every backbone layer of `block` trainable, or frozen if all of its layers that can train already
 * are. Head layers stay as they are: the head always trains.
 */
export function toggleBlock(spec: ModelSpec, set: ReadonlySet<string>, block: string): Set<string> {
  const members = spec.layers.slice(0, spec.backboneLayerCount).filter((l) => layerBlock(l.name) === block);
  const allOn = members.filter((l) => sum(l.trainableWeightSizes) > 0).every((l) => set.has(l.name));
  const next = new Set(set);
  for (const l of members) {
    if (allOn) next.delete(l.name);
    else next.add(l.name);
  }
  return next;
}
