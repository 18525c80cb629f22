import * as tf from '@tensorflow/tfjs';
import { WeightLoadError } from './errors';
import { count, errorMessage } from '../../core/format';
import {
  flatLayers,
  shortWeightName,
  type SourceLayer,
  type SourceWeight,
  type WeightSource,
} from './source';

/** One model weight and the stored weight that fills it. */
export interface WeightPair {
  /** The model's weight name, e.g. 'stem_conv/kernel'. */
  model: string;
  /** The stored weight name, e.g. 'stem_conv/kernel:0'. */
  stored: string;
  /** The shape both share. */
  shape: number[];
}

/** A model layer whose every weight has a stored counterpart of the same shape. */
export interface LayerMatch {
  /** The model's layer name. */
  layer: string;
  /**
   * The source's layer name: the same as `layer`, or another when the layer was paired by structure
   * (the layers left over on both sides have the same sequence of weight shapes, as a head Keras named
   * `dense`/`dense_1` against the lab's `head_dense`/`predictions`).
   */
  storedAs: string;
  /** The model layer's class, e.g. 'Conv2D'. */
  className: string;
  /** Number of values copied into this layer. */
  params: number;
  /** 'name' when stored and model weight names agree; else 'order', as Keras pairs them. */
  pairedBy: 'name' | 'order';
  /** The pairs, in the model's weight order. */
  weights: WeightPair[];
}

/** A weight that cannot be loaded: shapes differ, or one side has a weight the other lacks (null). */
export interface WeightMismatch {
  /** Layer name. */
  layer: string;
  /** Short weight name ('kernel', 'gamma'…), from whichever side has it. */
  weight: string;
  /** Shape the model expects, or null when the model has no such weight. */
  modelShape: number[] | null;
  /** Shape stored in the source, or null when the source lacks it. */
  storedShape: number[] | null;
}

/** What loading a source into a model would do; computed before any tensor is allocated. */
export interface WeightReport {
  /** The file or model the weights come from. */
  source: string;
  /** Layers that load completely. */
  matched: LayerMatch[];
  /** Model layers with weights that the source does not have (they keep their current values). */
  missing: string[];
  /** Source layers with weights that the model does not have (ignored). */
  unexpected: string[];
  /** Weights that cannot load; any of these makes the load fail. */
  mismatches: WeightMismatch[];
  /** Values that would be copied. */
  matchedParams: number;
  /** Values in all the model's weights. */
  modelParams: number;
  /** Values in all the source's weights. */
  sourceParams: number;
}

/**
 * Keras' `load_weights(by_name=True, skip_mismatch=False)` by default: a layer missing on either side is
 * reported and skipped, a shape mismatch always fails. Set either flag to false to demand a complete match.
 */
export interface LoadOptions {
  /** Allow model layers that the source lacks (e.g. the head when loading a `_notop` file). Default true. */
  allowMissing?: boolean;
  /** Allow source layers that the model lacks (e.g. `predictions` when the model has no top). Default true. */
  allowUnexpected?: boolean;
  /**
   * The model's backbone layers (names). When given and the model has weights among them, a source that
   * fills none of them is refused: loading only the head is never what a user meant.
   */
  backboneLayers?: readonly string[];
}

interface Assignment {
  layer: tf.layers.Layer;
  stored: SourceWeight[];
}

const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
const sameShape = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((d, i) => d === b[i]);
const fmt = (shape: readonly number[] | null): string =>
  shape === null ? 'nothing' : `[${shape.join(', ')}]`;

/** Pairs by short name when both sides use the same set of names, otherwise by position as Keras does. */
function pairWeights(modelWeights: readonly tf.LayerVariable[], stored: readonly SourceWeight[]) {
  const storedByName = new Map(stored.map((w) => [shortWeightName(w.name), w]));
  const byName =
    storedByName.size === stored.length &&
    stored.length === modelWeights.length &&
    modelWeights.every((w) => storedByName.has(shortWeightName(w.originalName)));
  const paired = modelWeights.map((w, i) =>
    byName ? storedByName.get(shortWeightName(w.originalName)) : stored[i],
  );
  return { byName, paired };
}

function matchLayer(layer: tf.layers.Layer, stored: SourceLayer, report: WeightReport): Assignment | null {
  const { byName, paired } = pairWeights(layer.weights, stored.weights);
  const before = report.mismatches.length;
  const pairs: WeightPair[] = [];
  layer.weights.forEach((w, i) => {
    const modelShape = w.shape.map((d) => d ?? 0);
    const s = paired[i];
    if (s === undefined || !sameShape(s.shape, modelShape)) {
      const storedShape = s === undefined ? null : [...s.shape];
      report.mismatches.push({
        layer: layer.name,
        weight: shortWeightName(w.originalName),
        modelShape,
        storedShape,
      });
    } else pairs.push({ model: w.originalName, stored: s.name, shape: modelShape });
  });
  for (const extra of stored.weights.slice(layer.weights.length)) {
    const weight = shortWeightName(extra.name);
    report.mismatches.push({ layer: layer.name, weight, modelShape: null, storedShape: [...extra.shape] });
  }
  if (report.mismatches.length > before) return null;
  const params = pairs.reduce((sum, p) => sum + size(p.shape), 0);
  report.matched.push({
    layer: layer.name,
    storedAs: stored.name,
    className: layer.getClassName(),
    params,
    pairedBy: byName ? 'name' : 'order',
    weights: pairs,
  });
  report.matchedParams += params;
  return { layer, stored: paired.filter((s): s is SourceWeight => s !== undefined) };
}

function plan(
  model: tf.LayersModel,
  source: WeightSource,
): { report: WeightReport; assignments: Assignment[] } {
  const storedByName = new Map(source.layers.map((l) => [l.name, l]));
  const layers = flatLayers(model).filter((l) => l.weights.length > 0);
  const report: WeightReport = {
    source: source.label,
    matched: [],
    missing: [],
    unexpected: [],
    mismatches: [],
    matchedParams: 0,
    modelParams: layers.reduce((sum, l) => sum + l.countParams(), 0),
    sourceParams: source.layers.reduce((sum, l) => sum + l.weights.reduce((s, w) => s + size(w.shape), 0), 0),
  };
  const modelNames = new Set(layers.map((l) => l.name));
  report.unexpected = source.layers.map((l) => l.name).filter((name) => !modelNames.has(name));
  const assignments: Assignment[] = [];
  const leftOver = layers.filter((l) => !storedByName.has(l.name));
  const byStructure = pairByStructure(
    leftOver,
    source.layers.filter((l) => !modelNames.has(l.name)),
  );
  if (byStructure !== null) {
    const paired = new Set([...byStructure.values()].map((l) => l.name));
    report.unexpected = report.unexpected.filter((name) => !paired.has(name));
  }
  for (const layer of layers) {
    const stored = storedByName.get(layer.name) ?? byStructure?.get(layer);
    if (stored === undefined) {
      report.missing.push(layer.name);
      continue;
    }
    const assignment = matchLayer(layer, stored, report);
    if (assignment !== null) assignments.push(assignment);
  }
  return { report, assignments };
}

const layerShapes = (weights: readonly { shape: readonly (number | null)[] }[]): string =>
  weights.map((w) => w.shape.join('x')).join(';');

/**
 * The model layers no stored name matches, paired in order with the stored layers no model name matches,
 * when both lists are the same length and every pair has the same weight shapes; else null. Keras names
 * layers by class and count (`dense`, `dense_1`), so the same head written without names differs only
 * in them.
 */
function pairByStructure(
  model: readonly tf.layers.Layer[],
  stored: readonly SourceLayer[],
): Map<tf.layers.Layer, SourceLayer> | null {
  if (model.length === 0 || model.length !== stored.length) return null;
  const same = model.every((layer, i) => layerShapes(layer.weights) === layerShapes(stored[i]!.weights));
  return same ? new Map(model.map((layer, i) => [layer, stored[i]!])) : null;
}

/** The report of loading `source` into `model`, without touching any weight. */
export function matchWeights(model: tf.LayersModel, source: WeightSource): WeightReport {
  return plan(model, source).report;
}

/** Model layers that took a stored layer of another name (paired by structure), as 'model ← stored'. */
export function pairedByStructure(report: WeightReport): string[] {
  return report.matched.filter((m) => m.storedAs !== m.layer).map((m) => `${m.layer} ← ${m.storedAs}`);
}

/**
 * One sentence on what a load gives, in parameters: how many come from the file and how many stay random,
 * e.g. "model.h5 gives 3,914,445 of the model's 4,078,987 parameters (96.0%); 164,542 in 2 layers
 * (head_dense, predictions) stay at their random initialisation."
 */
export function reportHeadline(report: WeightReport): string {
  const random = report.modelParams - report.matchedParams;
  const share = report.modelParams > 0 ? (100 * report.matchedParams) / report.modelParams : 0;
  const gives = `${report.source} gives ${count(report.matchedParams)} of the model's ${count(report.modelParams)} parameters (${share.toFixed(1)}%)`;
  if (random === 0) return `${gives}; none stays at its random initialisation.`;
  const where = `${report.missing.length} layer(s): ${listed(report.missing, 4)}`;
  return `${gives}; the other ${count(random)} (${where}) stay at their random initialisation.`;
}

/** One line per mismatch, e.g. "block1a_dwconv/depthwise_kernel: model expects [3, 3, 32, 1], stored [5, 5, 32, 1]". */
export function describeMismatch(m: WeightMismatch): string {
  return `${m.layer}/${m.weight}: model expects ${fmt(m.modelShape)}, stored ${fmt(m.storedShape)}`;
}

function listed(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** The refusal of a source that would fill only the head of a model whose backbone has weights. */
function unmatchedBackbone(report: WeightReport, backbone: readonly string[]): WeightLoadError | null {
  const named = new Set(backbone);
  const withWeights = report.missing.filter((name) => named.has(name));
  if (withWeights.length === 0 || report.matched.some((m) => named.has(m.layer))) return null;
  const file = report.source;
  const message =
    `${file} fills none of the model's ${withWeights.length} backbone layers with weights (${listed(withWeights, 3)}); ` +
    `only ${report.matched.length} head layer(s) would load and the whole backbone would stay random. ` +
    `The file's other layers: ${listed(report.unexpected, 3) || 'none'}. Choose the architecture the file was saved from, ` +
    `or save the backbone's weights with it.`;
  return new WeightLoadError('backbone-unmatched', file, message, report);
}

/** The error that `report` means under `options`, or null when the weights may be assigned. */
export function reportError(report: WeightReport, options: LoadOptions = {}): WeightLoadError | null {
  const { allowMissing = true, allowUnexpected = true } = options;
  const file = report.source;
  if (report.mismatches.length > 0) {
    const lines = report.mismatches.slice(0, 5).map(describeMismatch);
    const more = report.mismatches.length > 5 ? `\n  … and ${report.mismatches.length - 5} more` : '';
    const message = `${file}: ${report.mismatches.length} weight(s) do not fit the model:\n  ${lines.join('\n  ')}${more}`;
    return new WeightLoadError('shape-mismatch', file, message, report);
  }
  if (report.matched.length === 0) {
    const message = `${file}: none of its ${report.unexpected.length} layers with weights has a same-named layer in the model (file layers: ${listed(report.unexpected)}); is it for a different architecture?`;
    return new WeightLoadError('nothing-matched', file, message, report);
  }
  const backboneError = unmatchedBackbone(report, options.backboneLayers ?? []);
  if (backboneError !== null) return backboneError;
  if (!allowMissing && report.missing.length > 0) {
    const message = `${file} has no weights for ${report.missing.length} model layer(s): ${listed(report.missing)}`;
    return new WeightLoadError('missing-layers', file, message, report);
  }
  if (!allowUnexpected && report.unexpected.length > 0) {
    const message = `${file} has ${report.unexpected.length} layer(s) the model lacks: ${listed(report.unexpected)}`;
    return new WeightLoadError('unexpected-layers', file, message, report);
  }
  return null;
}

/**
 * Copies `source` into `model` by layer name, all or nothing: it checks the whole report first, then reads
 * every value, and only then assigns. Throws WeightLoadError (with the report) and changes nothing on failure.
 */
export function assignWeights(
  model: tf.LayersModel,
  source: WeightSource,
  options: LoadOptions = {},
): WeightReport {
  const { report, assignments } = plan(model, source);
  const error = reportError(report, options);
  if (error !== null) throw error;
  const values = assignments.map(({ stored }) =>
    stored.map((w) => {
      let data: Float32Array;
      try {
        data = w.read();
      } catch (thrown) {
        throw new WeightLoadError(
          'corrupt',
          source.label,
          `${source.label}: cannot read ${w.name}: ${errorMessage(thrown)}`,
        );
      }
      if (data.length !== size(w.shape)) {
        const message = `${source.label}: ${w.name} holds ${data.length} values, its shape ${fmt(w.shape)} needs ${size(w.shape)}`;
        throw new WeightLoadError('corrupt', source.label, message);
      }
      return data;
    }),
  );
  assignments.forEach(({ layer }, i) => {
    const layerValues = values[i] ?? [];
    // setWeights copies into the layer's variables; the temporaries are released by tidy. Each keeps its
    // variable's dtype (Normalization's `count` is int32).
    tf.tidy(() =>
      layer.setWeights(
        layer.weights.map((w, j) =>
          tf.tensor(
            layerValues[j] ?? [],
            w.shape.map((d) => d ?? 0),
            w.dtype,
          ),
        ),
      ),
    );
  });
  return report;
}
