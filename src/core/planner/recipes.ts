import { layerParams, product, type LayerSpec, type ModelSpec } from '../model/modelSpec';
import { F32, sum } from './parts';

/**
 * The per-layer recipes of planTfjs: what each layer kind leaves alive in tfjs 4.22, read off its
 * kernels' gradient configs and checked against tf.profile (ml/memory/planner.test.ts). Bytes are
 * counted as tf.memory().numBytes counts them: per tensor, so a clone or a reshape is a copy.
 */

/** How a taped layer stands towards the gradient (tfjs' filtered tape). */
export type TapeMode =
  /** Frozen and nothing before it trains: taped, saved, but no gradient flows. */
  | 'off'
  /** Its input carries a gradient and it trains. */
  | 'path'
  /** It trains but its input carries no gradient (the first trainable layer). */
  | 'own'
  /** Frozen, but a gradient flows through it to earlier trainable layers. */
  | 'frozen-path';

interface Sizes {
  /** Bytes of all inputs for the batch. */ I: number;
  /** Bytes of the output for the batch. */ O: number;
  /** Bytes of all weights. */ P: number;
  /** Bytes of trainable weights when the layer trains. */ Pt: number;
  /** Channels of the output. */ C: number;
}

export interface Recipe {
  /** Saved for backward (clones counted, as tfjs counts them). */ saved: number;
  /**
   * Gradient bytes computed while backprop is inside this layer and kept until it ends: the input's
   * gradient when one is needed, plus the temporaries the layer's gradient functions compute eagerly.
   * Weight gradients are counted apart, as gradients.
   */
  grad: number;
  /** Temporaries beyond the output while the layer runs in inference mode. */
  inferenceTemp: number;
  /**
   * Intermediate results the layer leaves in the caller's scope besides its output: they live until the
   * enclosing tidy ends, under the tape and outside it alike (ReLU6's uncapped ReLU, as its layer
   * computes it without a tidy of its own).
   */
  scoped: number;
  /**
   * Temporaries of the layer's gradient, freed once it is done (they sit on top of the kept gradients
   * while it runs). Only checkpointed segments use it: there a segment can end on a large BatchNorm,
   * while the plain step's calibrated peak is the end of backprop over the whole model.
   */
  backwardSpike: number;
  exact: boolean;
}

/** Builds a recipe from a layer's terms; the gradient terms vanish where no gradient flows. */
type Make = (
  saved: number,
  internal: number,
  inferenceTemp?: number,
  exact?: boolean,
  spike?: number,
  scoped?: number,
) => Recipe;

function maker(mode: TapeMode, dx: number): Make {
  return (saved, internal, inferenceTemp = 0, exact = true, spike = 0, scoped = 0) => ({
    saved,
    grad: mode === 'off' ? 0 : dx + internal,
    inferenceTemp,
    backwardSpike: mode === 'off' ? 0 : spike,
    scoped,
    exact,
  });
}

function convRecipe(layer: LayerSpec, { I, O, P }: Sizes, mode: TapeMode, r: Make): Recipe {
  // Fused conv saves x, the kernel (and bias) and y. Swish is not fused: mul, sigmoid, mul.
  const act = layer.activation ?? 'linear';
  const actSaved = act === 'swish' ? 4 * O + 4 : act === 'sigmoid' ? O : 0;
  const actGrad = act === 'swish' ? 4 * O + 13 : act === 'sigmoid' ? O + 13 : 0;
  // tfjs computes the input gradient even when nothing needs it, and the kernel gradient even when
  // the layer is frozen.
  const unneeded = (mode === 'own' ? I : 0) + (mode === 'frozen-path' ? P : 0);
  return r(I + O + P + actSaved, actGrad + unneeded, 0, act in ACT_EXACT);
}

function batchNormRecipe({ O: X, P }: Sizes, mode: TapeMode, trains: boolean, r: Make): Recipe {
  if (!trains) return r(2 * X + 0.75 * P, 3 * X + 1.25 * P + 8, X);
  // Training mode: moments (mean, x - mean, square, mean), the fused op and the moving averages; the
  // gradient also flows back through the batch statistics.
  const internal = mode === 'path' ? 8 * X + 2.25 * P + 8 : 3 * X + 1.25 * P + 8;
  return r(6 * X + 3.75 * P + 8, internal, X, true, 2 * X);
}

function reluRecipe(layer: LayerSpec, X: number, r: Make): Recipe {
  // relu saves its input. ReLU6 then clips the relu output, which stays in the caller's scope (the
  // layer has no tidy of its own), and clip saves it too. Backprop tidies each op's gradient: clip's
  // result is kept beside the input's; relu's step and cast (a counted copy) are the spike.
  if (layer.maxValue === undefined) return r(X, 0, 0, true, 2 * X);
  return r(2 * X, X, 0, true, 2 * X, X);
}

function normalizationRecipe({ O: X, C }: Sizes, r: Make): Recipe {
  // (cast(x) - mean) / max(sqrt(variance), eps): sub and div each save a full-size input and a
  // per-channel statistic; the statistics' own ops save three more. Outside the tape the counted cast
  // and the difference sit beside the output; the gradient runs div, sub's reshape and cast's copy.
  const stats = C * F32;
  return r(2 * X + 6 * stats + F32, 2 * X, 2 * X + 6 * stats);
}

function denseRecipe(layer: LayerSpec, { I, O, P }: Sizes, r: Make): Recipe {
  const act = layer.activation ?? 'linear';
  if (act === 'softmax') return r(2 * I + 3 * O + 2 * P, I + 4 * O + P);
  if (act === 'relu') return r(I + 2 * O + P, 2 * O);
  return r(I + O + P, 0, 0, act === 'linear');
}

/** A layer kind's tfjs memory, read off the gradient tape (see the file comment). */
export function recipe(layer: LayerSpec, s: Sizes, mode: TapeMode, trains: boolean): Recipe {
  const { I, O } = s;
  const X = O;
  // The input's gradient exists when something before this layer needs it.
  const r = maker(mode, mode === 'path' || mode === 'frozen-path' ? I : 0);
  switch (layer.kind) {
    case 'conv2d':
      return convRecipe(layer, s, mode, r);
    case 'depthwiseConv2d':
      return r(I + s.P, 0);
    case 'batchNormalization':
      return batchNormRecipe(s, mode, trains, r);
    case 'activation':
      if (layer.activation === 'swish') return r(4 * X + 4, 3 * X, 2 * X);
      return r(2 * X, X, X, false);
    case 'relu':
      return reluRecipe(layer, X, r);
    case 'zeroPadding2d':
    case 'globalAveragePooling2d':
      return r(I, 0);
    case 'rescaling':
      return r(2 * X + 8, X, X);
    case 'reshape':
      return r(X, 0);
    case 'multiply':
    case 'add':
      return r(I, O);
    case 'dropout':
      // A per-example mask (stochastic depth) saves only the output and the small mask.
      return layer.sharedMask ? r(X + 32, 0) : r(4 * X + 8, 0);
    case 'dense':
      return denseRecipe(layer, s, r);
    case 'input':
      return r(0, 0);
    case 'normalization':
      return normalizationRecipe(s, r);
    case 'other':
      return r(I + O, O, O, false);
  }
}

const ACT_EXACT: Record<string, true> = { linear: true, swish: true, sigmoid: true };

export function sizes(layer: LayerSpec, batch: number): Sizes {
  const I = layer.inputShapes.reduce((n, s) => n + product(s), 0) * batch * F32;
  const O = product(layer.outputShape) * batch * F32;
  const P = layerParams(layer) * F32;
  const Pt = layer.trainableWeightSizes.reduce((a, b) => a + b, 0) * F32;
  return { I, O, P, Pt, C: layer.outputShape[layer.outputShape.length - 1] ?? 1 };
}

/** Which layers a gradient flows through: those that train or follow one that does. */
export function gradientPath(spec: ModelSpec, trainable: ReadonlySet<string>): Map<string, TapeMode> {
  const modes = new Map<string, TapeMode>();
  for (const layer of spec.layers) {
    const inputOnPath = layer.inputs.some((n) => (modes.get(n) ?? 'off') !== 'off');
    const trains = trainable.has(layer.name) && layer.trainableWeightSizes.length > 0;
    modes.set(layer.name, trains ? (inputOnPath ? 'path' : 'own') : inputOnPath ? 'frozen-path' : 'off');
  }
  return modes;
}

export type PerLayer = Recipe & {
  layer: string;
  out: number;
  /** Bytes of the layer's weight gradients (0 unless it trains). */
  weightGradients: number;
  /** Bytes of the fixed weights of a trainable layer, which a checkpoint recompute snapshots. */
  fixed: number;
};

/** Each taped layer's recipe for one (micro-)batch. */
export function tapedLayers(
  taped: readonly LayerSpec[],
  modes: Map<string, TapeMode>,
  batch: number,
  trainable: ReadonlySet<string>,
  approximate: Set<string>,
): PerLayer[] {
  return taped.map((layer) => {
    const s = sizes(layer, batch);
    const trains = trainable.has(layer.name);
    const rec = recipe(layer, s, modes.get(layer.name) ?? 'off', trains);
    if (!rec.exact) approximate.add(layer.className);
    return {
      layer: layer.name,
      // The model's input is the batch, counted as input.
      out: layer.kind === 'input' ? 0 : s.O,
      weightGradients: trains ? s.Pt : 0,
      fixed: trains ? sum(layer.fixedWeightSizes) * F32 : 0,
      ...rec,
    };
  });
}

/**
 * FLOPs of one step: the forward pass, plus twice the forward cost of layers a gradient flows through;
 * the head alone when the backbone's features come from the cache.
 */
export function stepFlops(
  spec: ModelSpec,
  batch: number,
  modes: Map<string, TapeMode>,
  headOnly = false,
): number {
  return sum(
    (headOnly ? spec.layers.slice(spec.backboneLayerCount) : spec.layers).map((l) => {
      const forward = 2 * l.macs * batch;
      return (modes.get(l.name) ?? 'off') === 'off' ? forward : 3 * forward;
    }),
  );
}
