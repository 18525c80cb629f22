import { layerParams, product, type LayerSpec, type ModelSpec } from './modelSpec';

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
  /** Floating-point operations of one step (2 per multiply-accumulate). */
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
  exact: boolean;
}

/** A layer kind's tfjs memory, read off the gradient tape (see the file comment). */
function recipe(layer: LayerSpec, s: Sizes, mode: TapeMode, trains: boolean): Recipe {
  const { I, O, P } = s;
  const X = O;
  // The input's gradient exists when something before this layer needs it.
  const dx = mode === 'path' || mode === 'frozen-path' ? I : 0;
  const r = (saved: number, internal: number, inferenceTemp = 0, exact = true): Recipe => ({
    saved,
    grad: mode === 'off' ? 0 : dx + internal,
    inferenceTemp,
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
        return r(6 * X + 3.75 * P + 8, internal, X);
      }
      return r(2 * X + 0.75 * P, 3 * X + 1.25 * P + 8, X);
    case 'activation':
      if (layer.activation === 'swish') return r(4 * X + 4, 3 * X, 2 * X);
      return r(2 * X, X, X, false);
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
    case 'normalization':
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

/** FLOPs of one step: the forward pass, plus twice the forward cost of layers a gradient flows through. */
function stepFlops(spec: ModelSpec, batch: number, modes: Map<string, TapeMode>): number {
  return sum(
    spec.layers.map((l) => {
      const forward = 2 * l.macs * batch;
      return (modes.get(l.name) ?? 'off') === 'off' ? forward : 3 * forward;
    }),
  );
}

/** Predicted peak of one tfjs training step (see the file comment for what tfjs keeps). */
export function planTfjs(input: PlanInput): Plan {
  const { spec, batch, trainable } = input;
  const params = parameterBytes(input);
  const inputBytes = (1 + (input.queuedBatches ?? 0)) * batch * (spec.height * spec.width * 3 + 1) * F32;
  const outside = input.backboneOutsideTape;
  const taped = outside ? spec.layers.slice(spec.backboneLayerCount) : spec.layers;
  const modes = gradientPath(
    { ...spec, layers: taped },
    new Set([...trainable].filter((n) => taped.some((l) => l.name === n))),
  );
  const approximate = new Set<string>();

  const perLayer = taped.map((layer) => {
    const s = sizes(layer, batch);
    const mode = modes.get(layer.name) ?? 'off';
    const rec = recipe(layer, s, mode, trainable.has(layer.name));
    if (!rec.exact) approximate.add(layer.className);
    return { layer: layer.name, out: s.O, ...rec };
  });

  // The backbone outside the tape runs in inference mode, where tfjs-layers disposes each output as soon
  // as its last consumer has run: only the frontier of the graph is alive.
  let backbonePeak = 0;
  let features = 0;
  if (outside) {
    const backbone = spec.layers.slice(0, spec.backboneLayerCount);
    const consumers = new Map<string, number>();
    for (const l of backbone) for (const n of l.inputs) consumers.set(n, (consumers.get(n) ?? 0) + 1);
    const outBytes = new Map<string, number>();
    let live = 0;
    for (const layer of backbone) {
      const s = sizes(layer, batch);
      const rec = recipe(layer, s, 'off', false);
      if (!rec.exact) approximate.add(layer.className);
      if (layer.kind === 'input') continue;
      backbonePeak = Math.max(backbonePeak, live + s.O + rec.inferenceTemp);
      live += s.O;
      outBytes.set(layer.name, s.O);
      for (const n of layer.inputs) {
        const left = (consumers.get(n) ?? 1) - 1;
        consumers.set(n, left);
        if (left === 0) live -= outBytes.get(n) ?? 0;
      }
      features = s.O;
    }
  }

  const saved = sum(perLayer.map((l) => l.saved));
  const outputs = sum(perLayer.map((l) => l.out));
  const grads = sum(perLayer.map((l) => l.grad));
  const candidates: { at: Plan['at']; categories: PlanCategories }[] = [
    {
      at: 'forward',
      categories: cats(params, inputBytes, { savedActivations: saved, transient: outputs + features }),
    },
    {
      at: 'backward',
      categories: cats(params, inputBytes, {
        gradients: params.gradients,
        savedActivations: saved,
        transient: grads + features,
      }),
    },
    {
      at: 'optimizer',
      categories: cats(params, inputBytes, {
        gradients: params.gradients,
        transient: optimizerTemporaries(input.optimizer, params),
      }),
    },
  ];
  if (outside)
    candidates.push({ at: 'backbone', categories: cats(params, inputBytes, { transient: backbonePeak }) });
  const total = (c: PlanCategories) => sum(Object.values(c));
  const best = candidates.reduce((a, b) => (total(b.categories) > total(a.categories) ? b : a));

  const byLayer = perLayer
    .map((l) => ({
      layer: l.layer,
      bytes: best.at === 'backward' ? l.saved + l.grad : best.at === 'forward' ? l.saved + l.out : 0,
    }))
    .filter((l) => l.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);

  return {
    peakBytes: total(best.categories),
    at: best.at,
    categories: best.categories,
    byLayer,
    flops: stepFlops(spec, batch, gradientPath(spec, trainable)),
    approximateKinds: [...approximate].sort(),
  };
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
