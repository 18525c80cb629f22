import { product, type ModelSpec } from '../model/modelSpec';
import { cats, F32, sum, type Candidate, type Held, type Params, type PlanInput } from './parts';
import { gradientPath, tapedLayers, type PerLayer } from './recipes';
import { cutSegments } from '../model/segments';

/**
 * The checkpoint segments of a model, by layer name, with the trainer's rule (core/model/segments.ts). The
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

/** A checkpointed pass's segments with each layer's recipe, and what the candidates share. */
interface Checkpointed {
  segments: PerLayer[][];
  /** Each segment's output: the next one's input, float32 bytes. */
  boundary: number[];
  /** Each boundary's bytes as kept between the passes (packed with float16 storage). */
  kept: number[];
  /** Float16 storage: a boundary is unpacked to float32 for its segment's run. */
  packed: boolean;
  /** The first segment that trains, the first to be recomputed. */
  first: number;
  params: Params;
  held: Held;
}

const layerMap = (layers: PerLayer[], f: (l: PerLayer) => number) =>
  new Map(layers.map((l) => [l.layer, f(l)]));

/** Segment inputs still held while segment s runs: those from the first recomputed segment on. */
const keptBefore = (c: Checkpointed, s: number) => sum(c.kept.slice(Math.max(1, c.first) - 1, s));

/**
 * With float16 storage, the float32 input of segment s beside its packed copy: in the forward pass the
 * previous segment's output (for a segment that keeps it), in the backward pass the unpacked boundary.
 */
const unpackedInput = (c: Checkpointed, s: number) =>
  c.packed && s > 0 && s >= c.first ? c.boundary[s - 1]! : 0;

/** Bytes of n float32 bytes' worth of values packed as binary16 pairs: ceil(n / 2) int32 words. */
export const packedBytes = (float32Bytes: number): number => Math.ceil(float32Bytes / F32 / 2) * F32;

/** Each segment but the last run outside the tape, keeping its input where it will be recomputed. */
function segmentForwards(c: Checkpointed): Candidate[] {
  return c.segments.slice(0, -1).map((layers, s) => {
    const inputBoundary = s > 0 && s < c.first ? c.boundary[s - 1]! : 0;
    // Outside the tape each layer's temporaries go when it returns; the outputs stay until the segment's.
    let outputs = 0;
    let peak = 0;
    for (const l of layers) {
      outputs += l.scoped;
      peak = Math.max(peak, outputs + l.out + l.inferenceTemp);
      outputs += l.out;
    }
    return {
      at: 'forward',
      categories: cats(c.params, c.held.input, {
        gradients: c.held.accumulator,
        savedActivations: keptBefore(c, s) + inputBoundary + unpackedInput(c, s),
        transient: peak,
      }),
      byLayer: layerMap(layers, (l) => l.out),
    };
  });
}

/**
 * From the last segment back to the first that trains, each one recomputed under the tape, then
 * backpropagated: its forward's outputs, and the worst moment of its backprop.
 */
function segmentBackwards(c: Checkpointed): Candidate[] {
  const { segments, boundary, params, held } = c;
  const last = segments.length - 1;
  const candidates: Candidate[] = [];
  let doneGradients = 0;
  for (let s = last; s >= c.first; s--) {
    const layers = segments[s]!;
    const saved = keptBefore(c, s) + unpackedInput(c, s) + sum(layers.map((l) => l.saved));
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
    const gradients = held.accumulator + doneGradients;
    candidates.push(
      {
        at: 'backward',
        categories: cats(params, held.input, {
          gradients,
          savedActivations: saved,
          transient: dy + snapshot + sum(layers.map((l) => l.out + l.scoped)),
        }),
        byLayer: layerMap(layers, (l) => l.saved + l.out + l.scoped),
      },
      {
        at: 'backward',
        categories: cats(params, held.input, {
          gradients: gradients + worst.weightGrads,
          savedActivations: saved,
          transient: dy + snapshot + worst.grads + worst.spike,
        }),
        byLayer: layerMap(layers, (l) => l.saved + l.grad),
      },
    );
    doneGradients += weightGrads;
  }
  return candidates;
}

/**
 * Forward and backward of one micro-batch checkpointed at block boundaries (ml/train/checkpoint.ts):
 * each segment runs outside the tape keeping only its input, then from the last segment back each one
 * is recomputed under the tape and backpropagated alone, with the boundaries before it still held, the
 * incoming activation gradient, and the weight gradients of the segments already done.
 */
export function checkpointedCandidates(
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
  const first = segments.findIndex((s) => s.some((l) => l.weightGradients > 0));
  if (first < 0) return [];
  const boundary = segments.map((s) => s[s.length - 1]?.out ?? 0);
  const packed = input.boundaryStorage === 'float16';
  const kept = packed ? boundary.map(packedBytes) : boundary;
  const c: Checkpointed = { segments, boundary, kept, packed, first, params, held };
  return [...segmentForwards(c), ...segmentBackwards(c)];
}

/**
 * Multiply-accumulates per image that checkpointing runs twice: the forward of the segments from the
 * first trainable one on, except the last, whose forward runs only under the tape.
 */
export function recomputedMacs(spec: ModelSpec, trainable: ReadonlySet<string>): number {
  const { segments, first } = trainedSegments(spec, trainable);
  return first < 0 ? 0 : sum(segments.slice(first, -1).flatMap((s) => s.map((l) => l.macs)));
}

/** The checkpoint segments' layers, and the first segment with a trainable weight (-1: none). */
function trainedSegments(spec: ModelSpec, trainable: ReadonlySet<string>) {
  const byName = new Map(spec.layers.map((l) => [l.name, l]));
  const segments = checkpointSegments(spec).map((s) => s.layers.map((n) => byName.get(n)!));
  const first = segments.findIndex((s) =>
    s.some((l) => trainable.has(l.name) && sum(l.trainableWeightSizes) > 0),
  );
  return { segments, first };
}

/**
 * Bytes of the segment inputs kept between the forward and the backward pass (those of the segments
 * recomputed, the batch excluded), as stored: what float16 storage halves and the trainer reports as
 * StepTechnique.checkpoint.boundaryBytes. 0 when nothing trains.
 */
export function keptBoundaryBytes(
  spec: ModelSpec,
  trainable: ReadonlySet<string>,
  batch: number,
  storage: PlanInput['boundaryStorage'] = 'float32',
): number {
  const { segments, first } = trainedSegments(spec, trainable);
  if (first < 0) return 0;
  const outputs = segments.map((s) => batch * product(s[s.length - 1]?.outputShape ?? []) * F32);
  const kept = outputs.slice(Math.max(1, first) - 1, -1);
  return sum(storage === 'float16' ? kept.map(packedBytes) : kept);
}
