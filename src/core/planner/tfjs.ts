import { product, type ModelSpec } from '../model/modelSpec';
import { checkpointedCandidates, recomputedMacs } from './checkpoint';
import {
  cats,
  F32,
  microBatchSizes,
  optimizerTemporaries,
  parameterBytes,
  sum,
  type Candidate,
  type Held,
  type Params,
  type Plan,
  type PlanCategories,
  type PlanInput,
} from './parts';
import { gradientPath, recipe, sizes, stepFlops, tapedLayers, type PerLayer } from './recipes';

/** A graph model's node: one kernel, nothing beside its output (LayerSpec.op). */
const ONE_KERNEL = { scoped: 0, inferenceTemp: 0, exact: true };

/**
 * The backbone outside the tape runs in inference mode, where tfjs-layers (and a graph model's
 * executor) disposes each output as soon as its last consumer has run: only the frontier of the graph
 * is alive. Returns that peak and the features it hands to the head, with the outputs that outlive
 * the backbone beside them.
 */
function backboneInference(spec: ModelSpec, batch: number, approximate: Set<string>) {
  const backbone = spec.layers.slice(0, spec.backboneLayerCount);
  const consumers = new Map<string, number>();
  for (const l of backbone) for (const n of l.inputs) consumers.set(n, (consumers.get(n) ?? 0) + 1);
  const outBytes = new Map<string, number>();
  let live = 0;
  let peak = 0;
  let features = 0;
  let kept = 0;
  const outliving = new Set(backbone.filter((l) => l.outlivesBackbone).map((l) => l.name));
  for (const layer of backbone) {
    const s = sizes(layer, batch);
    const rec = layer.op ? ONE_KERNEL : recipe(layer, s, 'off', false);
    if (!rec.exact) approximate.add(layer.className);
    if (layer.kind === 'input') continue;
    if (layer.outlivesBackbone) kept += s.O;
    // What a layer leaves in the scope stays until the backbone's tidy ends.
    live += rec.scoped;
    peak = Math.max(peak, live + s.O + rec.inferenceTemp);
    live += s.O;
    outBytes.set(layer.name, s.O);
    for (const n of layer.inputs) {
      const left = (consumers.get(n) ?? 1) - 1;
      consumers.set(n, left);
      if (left === 0 && !outliving.has(n)) live -= outBytes.get(n) ?? 0;
    }
    features = s.O;
  }
  return { peak, features: features + kept };
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
