import { layerParams, product, type LayerSpec, type ModelSpec } from './modelSpec';
import { cutSegments } from './segments';
import { resolveTrainable } from './trainable';
import type { TrainConfig, TrainingPhase } from './trainConfig';

/**
 * The memory planner: peak bytes of one training step, by category, from layer shapes alone.
 *
 * Two models of the same configuration:
 * - `planTfjs`: what TensorFlow.js 4.22 really allocates, counted the way `tf.memory().numBytes` and
 *   `tf.profile().peakBytes` count. The per-layer recipes below were read off tfjs' gradient tape for
 *   each layer kind (ml/memory/planner.test.ts checks whole steps against tf.profile, so they cannot
 *   drift silently). Four tfjs facts shape the result:
 *   1. every op run under the tape saves clones of the tensors its gradient needs, frozen layers
 *      included, and they live until backprop ends;
 *   2. the forward pass runs inside one tidy, so every layer output lives until the loss is computed;
 *   3. the backward pass runs inside one tidy too, so the gradient of every activation lives until the
 *      last layer's gradient is done: a full fine-tune peaks at the end of backprop;
 *   4. Adam updates all variables inside one tidy, leaving 14 temporaries per weight until the end:
 *      with few activations (small batch, few trainable layers) the update is the peak.
 *   The memory-saving techniques are modelled as ml/train/trainer.ts runs them. Accumulation: each
 *   micro-batch is a plain step of its own size, beside the whole batch, the micro-batch's slice and,
 *   from the second micro-batch on, the running gradient sum (one more copy of the trainable weights).
 *   Block checkpointing: the largest of the segment-by-segment forward outside the tape (kept segment
 *   inputs plus one segment's outputs) and each segment's recompute under the tape (kept inputs up to
 *   it, its saved tensors and gradients by the same recipes, the incoming activation gradient and the
 *   weight gradients of the segments already done).
 * - `planKeras`: what TensorFlow/Keras on a CUDA card would need: activations only where a gradient
 *   needs them, nothing before the first trainable layer, each activation gradient freed once used.
 */

export type OptimizerName = 'adam' | 'sgd' | 'momentum';

export interface PlanInput {
  spec: ModelSpec;
  batch: number;
  /** Names of the layers that train (see `trainableLayers`). */
  trainable: ReadonlySet<string>;
  optimizer: OptimizerName;
  /** Run the backbone outside the gradient tape (only when no backbone layer trains). */
  backboneOutsideTape: boolean;
  /** Batches the input pipeline holds ready besides the current one (prefetch). */
  queuedBatches?: number;
  /**
   * Gradient accumulation: the batch is split into this many near-equal micro-batches whose gradients
   * are summed into one update (default 1, no accumulation).
   */
  accumulationSteps?: number;
  /**
   * Gradient checkpointing at Keras block boundaries (default 'off'); only when the backbone is taped,
   * as the trainer does.
   */
  checkpointing?: 'off' | 'blocks';
  /**
   * A step of the frozen phase's later epochs with the feature cache (only with the backbone outside the
   * tape): the head trains on stored backbone features, made one batch at a time from host memory, so
   * there are no images, no prefetched batches and no backbone pass.
   */
  cachedFeatures?: boolean;
}

/** Bytes at the predicted peak, by category; they add up to `peakBytes`. */
export interface PlanCategories {
  weights: number;
  gradients: number;
  optimizer: number;
  input: number;
  /** Tensors kept for the backward pass. */
  savedActivations: number;
  /** Layer outputs and activation gradients alive at the peak, and the peak op's temporaries. */
  transient: number;
}

export interface Plan {
  peakBytes: number;
  /** When in the step the peak falls. */
  at: 'forward' | 'backward' | 'backbone' | 'optimizer';
  categories: PlanCategories;
  /** Bytes each layer holds at the peak (saved tensors plus gradients), largest first. */
  byLayer: { layer: string; bytes: number }[];
  /** Floating-point operations of one step (2 per multiply-accumulate), checkpointing's recompute included. */
  flops: number;
  /** Layer kinds without a measured recipe; their share is estimated. */
  approximateKinds: string[];
}

const F32 = 4;
const OPTIMIZER_SLOTS: Record<OptimizerName, number> = { adam: 2, momentum: 1, sgd: 0 };

/**
 * Temporaries of the update. tfjs' Adam updates every variable inside one tidy, and each variable leaves
 * 14 temporaries of its size until the last one is done; SGD (2) and momentum (4) tidy per variable.
 */
function optimizerTemporaries(
  optimizer: OptimizerName,
  params: { gradients: number; largestTrainable: number },
): number {
  if (optimizer === 'adam') return 14 * params.gradients;
  return (optimizer === 'momentum' ? 4 : 2) * params.largestTrainable;
}

/** How a taped layer stands towards the gradient (tfjs' filtered tape). */
type TapeMode =
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

interface Recipe {
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

/** A layer kind's tfjs memory, read off the gradient tape (see the file comment). */
function recipe(layer: LayerSpec, s: Sizes, mode: TapeMode, trains: boolean): Recipe {
  const { I, O, P } = s;
  const X = O;
  // The input's gradient exists when something before this layer needs it.
  const dx = mode === 'path' || mode === 'frozen-path' ? I : 0;
  const r = (
    saved: number,
    internal: number,
    inferenceTemp = 0,
    exact = true,
    spike = 0,
    scoped = 0,
  ): Recipe => ({
    saved,
    grad: mode === 'off' ? 0 : dx + internal,
    inferenceTemp,
    backwardSpike: mode === 'off' ? 0 : spike,
    scoped,
    exact,
  });
  switch (layer.kind) {
    case 'conv2d': {
      // Fused conv saves x, the kernel (and bias) and y. Swish is not fused: mul, sigmoid, mul.
      const act = layer.activation ?? 'linear';
      const actSaved = act === 'swish' ? 4 * O + 4 : act === 'sigmoid' ? O : 0;
      const actGrad = act === 'swish' ? 4 * O + 13 : act === 'sigmoid' ? O + 13 : 0;
      // tfjs computes the input gradient even when nothing needs it, and the kernel gradient even
      // when the layer is frozen.
      const unneeded = (mode === 'own' ? I : 0) + (mode === 'frozen-path' ? P : 0);
      return r(I + O + P + actSaved, actGrad + unneeded, 0, act in ACT_EXACT);
    }
    case 'depthwiseConv2d':
      return r(I + P, 0);
    case 'batchNormalization':
      if (trains) {
        // Training mode: moments (mean, x - mean, square, mean), the fused op and the moving averages;
        // the gradient also flows back through the batch statistics.
        const internal = mode === 'path' ? 8 * X + 2.25 * P + 8 : 3 * X + 1.25 * P + 8;
        return r(6 * X + 3.75 * P + 8, internal, X, true, 2 * X);
      }
      return r(2 * X + 0.75 * P, 3 * X + 1.25 * P + 8, X);
    case 'activation':
      if (layer.activation === 'swish') return r(4 * X + 4, 3 * X, 2 * X);
      return r(2 * X, X, X, false);
    case 'relu':
      // relu saves its input. ReLU6 then clips the relu output, which stays in the caller's scope (the
      // layer has no tidy of its own), and clip saves it too. Backprop tidies each op's gradient: clip's
      // result is kept beside the input's; relu's step and cast (a counted copy) are the spike.
      if (layer.maxValue === undefined) return r(X, 0, 0, true, 2 * X);
      return r(2 * X, X, 0, true, 2 * X, X);
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
    case 'dense': {
      const act = layer.activation ?? 'linear';
      if (act === 'softmax') return r(2 * I + 3 * O + 2 * P, I + 4 * O + P);
      if (act === 'relu') return r(I + 2 * O + P, 2 * O);
      return r(I + O + P, 0, 0, act === 'linear');
    }
    case 'input':
      return r(0, 0);
    case 'normalization': {
      // (cast(x) - mean) / max(sqrt(variance), eps): sub and div each save a full-size input and a
      // per-channel statistic; the statistics' own ops save three more. Outside the tape the counted
      // cast and the difference sit beside the output; the gradient runs div, sub's reshape and
      // cast's copy.
      const stats = s.C * F32;
      return r(2 * X + 6 * stats + F32, 2 * X, 2 * X + 6 * stats);
    }
    case 'other':
      return r(I + O, O, O, false);
  }
}

const ACT_EXACT: Record<string, true> = { linear: true, swish: true, sigmoid: true };

function sizes(layer: LayerSpec, batch: number): Sizes {
  const I = layer.inputShapes.reduce((n, s) => n + product(s), 0) * batch * F32;
  const O = product(layer.outputShape) * batch * F32;
  const P = layerParams(layer) * F32;
  const Pt = layer.trainableWeightSizes.reduce((a, b) => a + b, 0) * F32;
  return { I, O, P, Pt, C: layer.outputShape[layer.outputShape.length - 1] ?? 1 };
}

/** Which layers a gradient flows through: those that train or follow one that does. */
function gradientPath(spec: ModelSpec, trainable: ReadonlySet<string>): Map<string, TapeMode> {
  const modes = new Map<string, TapeMode>();
  for (const layer of spec.layers) {
    const inputOnPath = layer.inputs.some((n) => (modes.get(n) ?? 'off') !== 'off');
    const trains = trainable.has(layer.name) && layer.trainableWeightSizes.length > 0;
    modes.set(layer.name, trains ? (inputOnPath ? 'path' : 'own') : inputOnPath ? 'frozen-path' : 'off');
  }
  return modes;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Bytes of the weights, their gradients and the optimizer slots. */
function parameterBytes(input: PlanInput) {
  const { spec, trainable, optimizer } = input;
  const weights = sum(spec.layers.map((l) => layerParams(l))) * F32;
  const trainableBytes =
    sum(spec.layers.filter((l) => trainable.has(l.name)).map((l) => sum(l.trainableWeightSizes))) * F32;
  const largestTrainable = Math.max(
    0,
    ...spec.layers.filter((l) => trainable.has(l.name)).flatMap((l) => l.trainableWeightSizes),
  );
  return {
    weights,
    gradients: trainableBytes,
    optimizer: trainableBytes * OPTIMIZER_SLOTS[optimizer],
    largestTrainable: largestTrainable * F32,
  };
}

/**
 * FLOPs of one step: the forward pass, plus twice the forward cost of layers a gradient flows through;
 * the head alone when the backbone's features come from the cache.
 */
function stepFlops(spec: ModelSpec, batch: number, modes: Map<string, TapeMode>, headOnly = false): number {
  return sum(
    (headOnly ? spec.layers.slice(spec.backboneLayerCount) : spec.layers).map((l) => {
      const forward = 2 * l.macs * batch;
      return (modes.get(l.name) ?? 'off') === 'off' ? forward : 3 * forward;
    }),
  );
}

/** Sizes of k near-equal micro-batches of an n-image batch, as the trainer splits it. */
export function microBatchSizes(n: number, k: number): number[] {
  const parts = Math.max(1, Math.min(n, Math.floor(k)));
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}

/**
 * The checkpoint segments of a model, by layer name, with the trainer's rule (core/segments.ts). The
 * input layer is in no segment.
 */
export function checkpointSegments(spec: ModelSpec): { name: string; layers: string[] }[] {
  const byName = new Map(spec.layers.map((l) => [l.name, l]));
  const output = spec.layers[spec.layers.length - 1];
  if (!output) return [];
  return cutSegments<string>({
    output: output.name,
    inputs: (name) => byName.get(name)?.inputs ?? [],
    layer: (name) => name,
  }).map((s) => ({ name: s.name, layers: s.steps }));
}

type Candidate = { at: Plan['at']; categories: PlanCategories; byLayer: Map<string, number> };
type PerLayer = Recipe & {
  layer: string;
  out: number;
  /** Bytes of the layer's weight gradients (0 unless it trains). */
  weightGradients: number;
  /** Bytes of the fixed weights of a trainable layer, which a checkpoint recompute snapshots. */
  fixed: number;
};
type Params = ReturnType<typeof parameterBytes>;

/** Each taped layer's recipe for one (micro-)batch. */
function tapedLayers(
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
 * The backbone outside the tape runs in inference mode, where tfjs-layers disposes each output as soon
 * as its last consumer has run: only the frontier of the graph is alive. Returns that peak and the
 * features it hands to the head.
 */
function backboneInference(spec: ModelSpec, batch: number, approximate: Set<string>) {
  const backbone = spec.layers.slice(0, spec.backboneLayerCount);
  const consumers = new Map<string, number>();
  for (const l of backbone) for (const n of l.inputs) consumers.set(n, (consumers.get(n) ?? 0) + 1);
  const outBytes = new Map<string, number>();
  let live = 0;
  let peak = 0;
  let features = 0;
  for (const layer of backbone) {
    const s = sizes(layer, batch);
    const rec = recipe(layer, s, 'off', false);
    if (!rec.exact) approximate.add(layer.className);
    if (layer.kind === 'input') continue;
    // What a layer leaves in the scope stays until the backbone's tidy ends.
    live += rec.scoped;
    peak = Math.max(peak, live + s.O + rec.inferenceTemp);
    live += s.O;
    outBytes.set(layer.name, s.O);
    for (const n of layer.inputs) {
      const left = (consumers.get(n) ?? 1) - 1;
      consumers.set(n, left);
      if (left === 0) live -= outBytes.get(n) ?? 0;
    }
    features = s.O;
  }
  return { peak, features };
}

/** Bytes alive besides one micro-batch's own pass: the batch, its slice, and the running gradient sum. */
interface Held {
  input: number;
  accumulator: number;
}

/** Forward and backward of one micro-batch with the whole model (or the head) on the tape. */
function tapedCandidates(
  input: PlanInput,
  params: Params,
  batch: number,
  held: Held,
  approximate: Set<string>,
): Candidate[] {
  const { spec, trainable } = input;
  const outside = input.backboneOutsideTape;
  const cached = outside && input.cachedFeatures === true;
  const taped = outside ? spec.layers.slice(spec.backboneLayerCount) : spec.layers;
  const modes = gradientPath(
    { ...spec, layers: taped },
    new Set([...trainable].filter((n) => taped.some((l) => l.name === n))),
  );
  const perLayer = tapedLayers(taped, modes, batch, trainable, approximate);
  // Cached features are the step's input, already counted in held.input.
  const backbone =
    outside && !cached ? backboneInference(spec, batch, approximate) : { peak: 0, features: 0 };
  const { features } = backbone;
  const saved = sum(perLayer.map((l) => l.saved));
  const at = (f: (l: PerLayer) => number) => new Map(perLayer.map((l) => [l.layer, f(l)]));
  const candidates: Candidate[] = [
    {
      at: 'forward',
      categories: cats(params, held.input, {
        gradients: held.accumulator,
        savedActivations: saved,
        transient: sum(perLayer.map((l) => l.out + l.scoped)) + features,
      }),
      byLayer: at((l) => l.saved + l.out + l.scoped),
    },
    {
      at: 'backward',
      categories: cats(params, held.input, {
        gradients: held.accumulator + params.gradients,
        savedActivations: saved,
        transient: sum(perLayer.map((l) => l.grad)) + features,
      }),
      byLayer: at((l) => l.saved + l.grad),
    },
  ];
  if (outside && !cached)
    candidates.push({
      at: 'backbone',
      categories: cats(params, held.input, { gradients: held.accumulator, transient: backbone.peak }),
      byLayer: new Map(),
    });
  return candidates;
}

/**
 * Forward and backward of one micro-batch checkpointed at block boundaries (ml/train/checkpoint.ts):
 * each segment runs outside the tape keeping only its input, then from the last segment back each one
 * is recomputed under the tape and backpropagated alone, with the boundaries before it still held, the
 * incoming activation gradient, and the weight gradients of the segments already done.
 */
function checkpointedCandidates(
  input: PlanInput,
  params: Params,
  batch: number,
  held: Held,
  approximate: Set<string>,
): Candidate[] {
  const { spec, trainable } = input;
  const modes = gradientPath(spec, trainable);
  const perLayer = new Map(
    tapedLayers(spec.layers, modes, batch, trainable, approximate).map((l) => [l.layer, l]),
  );
  const segments = checkpointSegments(spec).map((s) => s.layers.map((n) => perLayer.get(n)!));
  const boundary = segments.map((s) => s[s.length - 1]?.out ?? 0);
  const first = segments.findIndex((s) => s.some((l) => l.weightGradients > 0));
  if (first < 0) return [];
  const last = segments.length - 1;
  const candidates: Candidate[] = [];
  const layerMap = (layers: PerLayer[], f: (l: PerLayer) => number) =>
    new Map(layers.map((l) => [l.layer, f(l)]));
  // boundary[s - 1] is the input of segment s; those from the first recomputed segment on are kept.
  const kept = (s: number) => sum(boundary.slice(Math.max(1, first) - 1, s));
  for (let s = 0; s < last; s++) {
    const layers = segments[s]!;
    const inputBoundary = s > 0 && s < first ? boundary[s - 1]! : 0;
    // Outside the tape each layer's temporaries go when it returns; the outputs stay until the segment's.
    let outputs = 0;
    let peak = 0;
    for (const l of layers) {
      outputs += l.scoped;
      peak = Math.max(peak, outputs + l.out + l.inferenceTemp);
      outputs += l.out;
    }
    candidates.push({
      at: 'forward',
      categories: cats(params, held.input, {
        gradients: held.accumulator,
        savedActivations: kept(s) + inputBoundary,
        transient: peak,
      }),
      byLayer: layerMap(layers, (l) => l.out),
    });
  }
  let doneGradients = 0;
  for (let s = last; s >= first; s--) {
    const layers = segments[s]!;
    const saved = sum(layers.map((l) => l.saved));
    const dy = s < last ? boundary[s]! : 0;
    const snapshot = s < last ? sum(layers.map((l) => l.fixed)) : 0;
    // Backprop walks the segment from its last layer; what each layer computes stays until the segment
    // is done, and a layer's gradient temporaries (backwardSpike) sit on top while it runs.
    let grads = 0;
    let weightGrads = 0;
    let worst = { grads: 0, weightGrads: 0, spike: 0 };
    for (const l of [...layers].reverse()) {
      grads += l.grad;
      weightGrads += l.weightGradients;
      if (grads + weightGrads + l.backwardSpike >= worst.grads + worst.weightGrads + worst.spike)
        worst = { grads, weightGrads, spike: l.backwardSpike };
    }
    candidates.push(
      {
        at: 'backward',
        categories: cats(params, held.input, {
          gradients: held.accumulator + doneGradients,
          savedActivations: kept(s) + saved,
          transient: dy + snapshot + sum(layers.map((l) => l.out + l.scoped)),
        }),
        byLayer: layerMap(layers, (l) => l.saved + l.out + l.scoped),
      },
      {
        at: 'backward',
        categories: cats(params, held.input, {
          gradients: held.accumulator + doneGradients + worst.weightGrads,
          savedActivations: kept(s) + saved,
          transient: dy + snapshot + worst.grads + worst.spike,
        }),
        byLayer: layerMap(layers, (l) => l.saved + l.grad),
      },
    );
    doneGradients += weightGrads;
  }
  return candidates;
}

/** Predicted peak of one tfjs training step (see the file comment for what tfjs keeps). */
export function planTfjs(input: PlanInput): Plan {
  const { spec, batch, trainable } = input;
  const params = parameterBytes(input);
  const cached = input.backboneOutsideTape && input.cachedFeatures === true;
  const features = product(spec.layers[spec.backboneLayerCount - 1]?.outputShape ?? []);
  // Per image: its pixels (or its cached features) and its label.
  const imageBytes = (n: number) => n * ((cached ? features : spec.height * spec.width * 3) + 1) * F32;
  const inputBytes = (1 + (cached ? 0 : (input.queuedBatches ?? 0))) * imageBytes(batch);
  const approximate = new Set<string>();
  const checkpointed = input.checkpointing === 'blocks' && !input.backboneOutsideTape;
  const pass = checkpointed ? checkpointedCandidates : tapedCandidates;
  // The first micro-batch runs with no running sum; each later one beside it, and its own slice.
  const micro = microBatchSizes(batch, input.accumulationSteps ?? 1);
  const split = micro.length > 1;
  const candidates: Candidate[] = micro.slice(0, 2).flatMap((size, i) =>
    pass(
      input,
      params,
      size,
      {
        input: inputBytes + (split ? imageBytes(size) : 0),
        accumulator: i > 0 ? params.gradients : 0,
      },
      approximate,
    ),
  );
  candidates.push({
    at: 'optimizer',
    categories: cats(params, inputBytes, {
      gradients: params.gradients,
      transient: optimizerTemporaries(input.optimizer, params),
    }),
    byLayer: new Map(),
  });
  const total = (c: PlanCategories) => sum(Object.values(c));
  const best = candidates.reduce((a, b) => (total(b.categories) > total(a.categories) ? b : a));

  return {
    peakBytes: total(best.categories),
    at: best.at,
    categories: best.categories,
    byLayer: [...best.byLayer]
      .map(([layer, bytes]) => ({ layer, bytes }))
      .filter((l) => l.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes),
    flops:
      stepFlops(spec, batch, gradientPath(spec, trainable), cached) +
      (checkpointed ? 2 * batch * recomputedMacs(spec, trainable) : 0),
    approximateKinds: [...approximate].sort(),
  };
}

/**
 * Multiply-accumulates per image that checkpointing runs twice: the forward of the segments from the
 * first trainable one on, except the last, whose forward runs only under the tape.
 */
function recomputedMacs(spec: ModelSpec, trainable: ReadonlySet<string>): number {
  const byName = new Map(spec.layers.map((l) => [l.name, l]));
  const segments = checkpointSegments(spec).map((s) => s.layers.map((n) => byName.get(n)!));
  const first = segments.findIndex((s) =>
    s.some((l) => trainable.has(l.name) && sum(l.trainableWeightSizes) > 0),
  );
  return first < 0 ? 0 : sum(segments.slice(first, -1).flatMap((s) => s.map((l) => l.macs)));
}

function cats(
  params: { weights: number; optimizer: number },
  input: number,
  rest: Partial<PlanCategories>,
): PlanCategories {
  return {
    weights: params.weights,
    gradients: 0,
    optimizer: params.optimizer,
    input,
    savedActivations: 0,
    transient: 0,
    ...rest,
  };
}

export type Precision = 'float32' | 'mixed_float16';

/**
 * What TensorFlow/Keras on a CUDA card would need for the same step: only ops on the gradient path are
 * recorded, each keeps what its gradient reads (a conv its input, BatchNorm its input, swish its input,
 * a multiply both inputs), and activation gradients are freed as soon as they are used, so the
 * transient is about the largest layer's output and gradient. Mixed precision stores activations in
 * float16 and keeps float32 master weights. cuDNN workspaces and allocator fragmentation are not modelled.
 */
export function planKeras(input: PlanInput, precision: Precision = 'float32'): Plan {
  const { spec, batch, trainable } = input;
  const params = parameterBytes(input);
  const act = precision === 'mixed_float16' ? 2 : F32;
  const inputBytes = batch * spec.height * spec.width * 3 * F32;
  const modes = gradientPath(spec, trainable);
  const perLayer = spec.layers.map((layer) => {
    const mode = modes.get(layer.name) ?? 'off';
    const I = layer.inputShapes.reduce((n, s) => n + product(s), 0) * batch * act;
    const O = product(layer.outputShape) * batch * act;
    if (mode === 'off') return { layer: layer.name, saved: 0, out: O };
    const keepsInput = ['conv2d', 'depthwiseConv2d', 'batchNormalization', 'activation', 'multiply', 'dense'];
    const conv = layer.kind === 'conv2d' && layer.activation && layer.activation !== 'linear' ? O : 0;
    const savedBytes = keepsInput.includes(layer.kind) ? I + conv : layer.kind === 'dropout' ? O : 0;
    return { layer: layer.name, saved: savedBytes, out: O };
  });
  const saved = sum(perLayer.map((l) => l.saved));
  const largest = Math.max(0, ...perLayer.map((l) => l.out));
  const categories = cats(params, inputBytes, {
    gradients: params.gradients,
    savedActivations: saved,
    transient: 2 * largest,
  });
  return {
    peakBytes: sum(Object.values(categories)),
    at: 'backward',
    categories,
    byLayer: perLayer
      .filter((l) => l.saved > 0)
      .map((l) => ({ layer: l.layer, bytes: l.saved }))
      .sort((a, b) => b.bytes - a.bytes),
    flops: stepFlops(spec, batch, modes),
    approximateKinds: [],
  };
}

/** Signed error of a prediction against a measurement, in percent of the measurement. */
export function predictionError(predicted: number, measured: number): number {
  return measured > 0 ? ((predicted - measured) / measured) * 100 : 0;
}

/** The planner's input for one phase of a configuration, as the trainer runs it. */
export function planInput(spec: ModelSpec, c: TrainConfig, phase: TrainingPhase): PlanInput {
  return {
    spec,
    batch: c.batchSize,
    trainable: resolveTrainable(spec, phase, c.fineTune),
    optimizer: 'adam',
    backboneOutsideTape: phase === 'frozen' && c.techniques.backboneOutsideTape,
    queuedBatches: c.prefetch,
    accumulationSteps: c.techniques.accumulationSteps,
    checkpointing: phase === 'fine-tune' ? c.techniques.checkpointing : 'off',
  };
}
