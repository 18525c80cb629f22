/**
 * The eleven remedy cards of OOM-CONTEXT.md, in its order, each computed on the current model and
 * settings (see core/experiments/experiments.ts for the card's shape and the seed case).
 */
import { augmentIsOff, DEFAULT_AUGMENT } from '../data/augment';
import { count, formatBytes } from '../format';
import type { ExperimentCard, ExperimentContext, ExperimentPair } from './experiments';
import {
  firstSpatialConv,
  headWeights,
  highestPeak,
  largestActivation,
  phasesOf,
  planPhase,
  specFits,
  trainableWeights,
} from './math';
import type { ModelSpec } from '../model/modelSpec';
import { microBatchSizes, planInput, planKeras } from '../planner/planner';
import { FLOAT16_WORDS } from '../oom/remedies';
import { featureCache } from '../settings/techniques';
import { fineTunedBackbone } from '../settings/trainable';
import type { TrainConfig } from '../settings/trainConfig';

const WAITING = 'Waiting for the planner to describe the model.';

/** A card's fields that most cards leave at their plain value. */
type Body = Pick<ExperimentCard, 'id' | 'remedy' | 'title' | 'changes' | 'why'> &
  Partial<Omit<ExperimentCard, 'id' | 'remedy' | 'title' | 'changes' | 'why'>>;

function card(body: Body): ExperimentCard {
  return { arithmetic: [], tfjs: 'real', limitation: null, pair: null, noRun: null, extra: null, ...body };
}

const pair = (before: TrainConfig, after: TrainConfig, beforeLabel: string, afterLabel: string) =>
  ({ before, after, beforeLabel, afterLabel }) satisfies ExperimentPair;

/** The settings with at least one fine-tune epoch, for remedies of the fine-tune phase. */
const withFineTune = (c: TrainConfig): TrainConfig => ({
  ...c,
  fineTuneEpochs: Math.max(1, c.fineTuneEpochs),
});

/** The phase whose predicted step is the largest. */
function heaviest(spec: ModelSpec, c: TrainConfig) {
  const plans = phasesOf(c).map((phase) => ({ phase, plan: planPhase(spec, c, phase) }));
  return plans.reduce((a, b) => (b.plan.peakBytes > a.plan.peakBytes ? b : a));
}

function unfreezeTop({ config, spec }: ExperimentContext): ExperimentCard {
  const body = {
    id: 'unfreeze-top',
    remedy: 1,
    title: 'Unfreeze only the top of the network, with a lower learning rate',
    changes: 'Phase 2 trains the last layers of the backbone instead of all of them, at a tenth of the rate.',
    why: 'Every trainable weight needs a gradient and two Adam slots (3 × 4 bytes). In tfjs the frozen layers still keep their activations on the tape, so it saves less than in Keras.',
  } as const;
  const base = withFineTune(config);
  if (!specFits(spec, config)) return card({ ...body, noRun: WAITING });
  const n = Math.max(1, Math.floor(fineTunedBackbone(spec, { kind: 'all' }).length / 4));
  const lr = config.frozenLearningRate;
  const before: TrainConfig = { ...base, fineTune: { kind: 'all' }, fineTuneLearningRate: lr };
  const after: TrainConfig = { ...base, fineTune: { kind: 'last', n }, fineTuneLearningRate: lr / 10 };
  const all = trainableWeights(spec, before);
  const top = trainableWeights(spec, after);
  return card({
    ...body,
    arithmetic: [
      `All layers: ${count(all)} trainable weights, ${formatBytes(all * 12)} of gradients and Adam slots.`,
      `The last ${n}: ${count(top)} trainable weights, ${formatBytes(top * 12)}.`,
      `Learning rate ${lr} → ${lr / 10}: small steps keep what the pretrained weights know.`,
    ],
    pair: pair(before, after, `all layers, rate ${lr}`, `last ${n}, rate ${lr / 10}`),
  });
}

function mixedPrecision({ config, spec }: ExperimentContext): ExperimentCard {
  const base = withFineTune(config);
  const t = base.techniques;
  const before: TrainConfig = {
    ...base,
    techniques: { ...t, checkpointing: 'blocks', float16Storage: false },
  };
  const after: TrainConfig = { ...before, techniques: { ...before.techniques, float16Storage: true } };
  const arithmetic: string[] = [];
  if (specFits(spec, config)) {
    const input = planInput(spec, { ...base, techniques: { ...t, checkpointing: 'off' } }, 'fine-tune');
    const fp32 = planKeras(input, 'float32');
    const fp16 = planKeras(input, 'mixed_float16');
    arithmetic.push(
      `Keras/CUDA, predicted: saved activations ${formatBytes(fp32.categories.savedActivations)} in float32 → ${formatBytes(fp16.categories.savedActivations)} in mixed float16; the step ${formatBytes(fp32.peakBytes)} → ${formatBytes(fp16.peakBytes)}.`,
    );
  }
  arithmetic.push(
    `This lab measures ${FLOAT16_WORDS}: the checkpointed step keeps its segment boundaries as float16 pairs (2 bytes a value instead of 4); weights, gradients and Adam slots stay float32.`,
    'The planner models the packed boundaries (ceil(n/2) int32 words each), so the card predicts both sides; the run measures them.',
  );
  return card({
    id: 'mixed-precision',
    remedy: 2,
    title: 'Mixed precision',
    changes: 'Keras: float16 compute and storage, float32 master weights and softmax, loss scaling.',
    why: 'An activation stored in 16 bits takes half the bytes of one in 32 bits.',
    arithmetic,
    tfjs: 'partial',
    limitation: `tfjs has no float16 dtype: the Keras figure is a prediction; here it is ${FLOAT16_WORDS}.`,
    pair: pair(before, after, 'checkpointed, float32', 'checkpointed, float16 storage'),
  });
}

function smallerBatch({ config, spec }: ExperimentContext): ExperimentCard {
  const b = config.batchSize;
  const half = Math.floor(b / 2);
  const body = {
    id: 'smaller-batch',
    remedy: 3,
    title: 'Smaller batch, set on the data set',
    changes: `Batch ${b} → ${half}, set where batches are made (the data set), not in fit().`,
    why: 'The input and every kept activation hold one slice per image. Keras ignores fit(batch_size) for a data set that is already batched.',
  } as const;
  if (b < 2) return card({ ...body, noRun: 'The batch is 1 already.' });
  const after = { ...config, batchSize: half };
  const px = config.height * config.width * 3 * 4;
  const arithmetic = [
    `Input batch: ${b} × ${config.height}×${config.width}×3 × 4 bytes = ${formatBytes(b * px)} → ${formatBytes(half * px)}.`,
  ];
  if (specFits(spec, config) && phasesOf(config).length > 0) {
    const { phase, plan } = heaviest(spec, config);
    const halfPlan = planPhase(spec, after, phase);
    arithmetic.push(
      `Saved activations of the ${phase} step, predicted: ${formatBytes(plan.categories.savedActivations)} → ${formatBytes(halfPlan.categories.savedActivations)}; the weights' share does not shrink.`,
    );
  }
  return card({ ...body, arithmetic, pair: pair(config, after, `batch ${b}`, `batch ${half}`) });
}

function memoryGrowth({ pool }: ExperimentContext): ExperimentCard {
  const arithmetic = pool
    ? [
        `Last run, measured: peak ${formatBytes(pool.peakLive)} live, ${formatBytes(pool.peakAllocated)} held by the backend.`,
        `At its end: ${formatBytes(pool.endLive)} live, ${formatBytes(pool.endAllocated)} held — ${formatBytes(Math.max(0, pool.endAllocated - pool.endLive))} free in tfjs' pool, which other work cannot use.`,
      ]
    : [
        'Train once on WebGPU or WebGL to see the pool line against the live line (the cpu backend has no pool).',
      ];
  return card({
    id: 'memory-growth',
    remedy: 4,
    title: 'Memory growth instead of pre-allocation',
    changes: 'TensorFlow: allocate on demand rather than reserving the whole card at start.',
    why: 'A reserved or pooled buffer is not free to anyone else: “nvidia-smi says free, yet OOM”.',
    arithmetic,
    tfjs: 'cannot',
    limitation:
      'tfjs always allocates on demand and cannot pre-allocate the card, so there is no switch to flip; what can be shown is its pool line against the live line (the memory view draws both).',
    noRun: 'Nothing to switch in tfjs: the figures come from the last run.',
  });
}

function memoryLimit({ config, spec }: ExperimentContext): ExperimentCard {
  const body = {
    id: 'memory-limit',
    remedy: 5,
    title: 'A per-device memory limit',
    changes: 'A hard budget, like TensorFlow’s virtual device memory_limit.',
    why: 'With a budget every laptop hits the same wall at the same step, and the rest of the GPU stays free for other work.',
  } as const;
  const before = { ...config, budgetBytes: null };
  if (!specFits(spec, config)) return card({ ...body, noRun: WAITING });
  const peak = highestPeak(spec, before);
  const limit = Math.max(1e6, Math.floor((peak * 0.9) / 1e6) * 1e6);
  return card({
    ...body,
    arithmetic: [
      `Predicted peak without a limit: ${formatBytes(peak)}. A ${formatBytes(limit)} card (90% of it) must stop the run with an OOM naming the layer.`,
    ],
    limitation: 'A simulated card: the lab checks every allocation against it; the real GPU is not capped.',
    tfjs: 'partial',
    pair: pair(before, { ...config, budgetBytes: limit }, 'no limit', `${formatBytes(limit)} card`),
  });
}

function clearSession(): ExperimentCard {
  return card({
    id: 'clear-session',
    remedy: 6,
    title: 'Free everything between experiments',
    changes: 'Keras: tf.keras.backend.clear_session(); here: dispose every tensor and re-create the backend.',
    why: 'Leaked tensors and stale models keep their bytes until they are disposed; a fresh backend also drops the pool.',
    arithmetic: ['Release measures live and allocated bytes before and after.'],
    tfjs: 'partial',
    limitation: 'tfjs has no clear_session: the lab re-creates the backend, which frees the model too.',
    noRun: 'This card measures a release, not a training run.',
    extra: 'release',
  });
}

/** Four fifths of a side, to a multiple of 8, at least 32 (300×500 → 240×400). */
const smallerSide = (side: number) => Math.max(32, Math.round((side * 0.8) / 8) * 8);

function lowerResolution({ config, spec }: ExperimentContext): ExperimentCard {
  const h = smallerSide(config.height);
  const w = smallerSide(config.width);
  const share = (h * w) / (config.height * config.width);
  const body = {
    id: 'lower-resolution',
    remedy: 7,
    title: 'Smaller input resolution',
    changes: `${config.height}×${config.width} → ${h}×${w} (or 224×224).`,
    why: 'Activation maps scale with height × width.',
  } as const;
  if (h === config.height && w === config.width)
    return card({ ...body, noRun: 'Already at the smallest size the card lowers to (32 px).' });
  const arithmetic = [
    `${h}×${w} has ${Math.round(share * 100)}% of the pixels of ${config.height}×${config.width}.`,
  ];
  if (specFits(spec, config)) {
    const a = largestActivation(spec);
    arithmetic.push(
      `${a.layer} (${a.shape.join('×')}): ${formatBytes(a.bytes)} per image, about ${formatBytes(a.bytes * share)} at ${h}×${w}.`,
    );
  }
  return card({
    ...body,
    arithmetic,
    pair: pair(config, { ...config, height: h, width: w }, `${config.height}×${config.width}`, `${h}×${w}`),
  });
}

function inputPipeline({ config }: ExperimentContext): ExperimentCard {
  const augment = augmentIsOff(config.augment) ? DEFAULT_AUGMENT : config.augment;
  const before: TrainConfig = { ...config, augment, augmentOn: 'gpu', prefetch: 0 };
  const after: TrainConfig = { ...before, augmentOn: 'cpu', prefetch: 1 };
  const batch = config.batchSize * config.height * config.width * 3 * 4;
  return card({
    id: 'input-pipeline',
    remedy: 8,
    title: 'Augmentation off the accelerator, prefetch',
    changes: 'Augment on the CPU and keep one batch ready ahead of the step.',
    why: 'Augmenting on the accelerator makes its intermediate images there; a prefetched batch costs device memory but keeps the model fed.',
    arithmetic: [
      `One batch: ${config.batchSize} × ${config.height}×${config.width}×3 × 4 bytes = ${formatBytes(batch)} on the device per prefetched batch.`,
      'Compare the step times: input that starves the model shows as a longer step.',
    ],
    pair: pair(before, after, 'augment on the backend, no prefetch', 'augment on the CPU, prefetch 1'),
  });
}

function accumulate({ config }: ExperimentContext): ExperimentCard {
  const b = config.batchSize;
  const body = {
    id: 'accumulate',
    remedy: 9,
    title: 'Gradient accumulation',
    changes: `k micro-batches of size b update like one batch of k·b.`,
    why: 'The optimizer sees the whole batch; activations are held for one micro-batch at a time.',
  } as const;
  if (b < 2) return card({ ...body, noRun: 'A batch of 1 cannot be split.' });
  const t = config.techniques;
  const before = { ...config, techniques: { ...t, accumulationSteps: 1 } };
  const after = { ...config, techniques: { ...t, accumulationSteps: 2 } };
  const sizes = [...new Set(microBatchSizes(b, 2))].join(' or ');
  return card({
    ...body,
    arithmetic: [
      `2 micro-batches of ${sizes}: ${b} images per update, the activations of ${sizes}; one more copy of the trainable weights holds the running gradient sum.`,
    ],
    pair: pair(before, after, `1 batch of ${b}`, `2 micro-batches of ${sizes}`),
  });
}

function lighterBlocks({ config, spec }: ExperimentContext): ExperimentCard {
  const arithmetic: string[] = [];
  const conv = specFits(spec, config) ? firstSpatialConv(spec) : null;
  if (conv)
    arithmetic.push(
      `${conv.layer}: a ${conv.k}×${conv.k}×${conv.cin}→${conv.cout} convolution has ${count(conv.weights)} weights; depthwise ${count(conv.depthwise)} + pointwise ${count(conv.pointwise)} = ${count(conv.depthwise + conv.pointwise)}.`,
    );
  const head = specFits(spec, config) ? headWeights(spec) : null;
  if (head)
    arithmetic.push(
      `Head: Dense(128) after global average pooling of ${head.features.join('×')} has ${count(head.pooled)} weights; after Flatten it would have ${count(head.flattened)}.`,
    );
  const depthwise = spec?.layers.filter((l) => l.kind === 'depthwiseConv2d').length ?? 0;
  if (depthwise > 0) arithmetic.push(`This model already has ${depthwise} depthwise convolutions.`);
  return card({
    id: 'lighter-blocks',
    remedy: 10,
    title: 'Lighter blocks',
    changes: 'Depthwise-separable convolutions; global average pooling instead of a large dense head.',
    why: 'Fewer weights mean fewer gradients and Adam slots; pooling shrinks the head’s input to one value per channel.',
    arithmetic: arithmetic.length > 0 ? arithmetic : [WAITING],
    tfjs: 'cannot',
    limitation: 'The lab’s architectures are fixed: compare models with a sweep instead.',
    noRun: 'An architecture change, not a setting: the arithmetic is on this model’s own layers.',
  });
}

function diagnose({ config, spec }: ExperimentContext): ExperimentCard {
  const arithmetic = [
    `Device: the backend badge; memory growth: always on in tfjs (card 4); ${featureCache(config).on ? 'the feature cache holds the frozen features on the host' : `feature cache off (${featureCache(config).why})`}.`,
  ];
  if (specFits(spec, config) && phasesOf(config).length > 0) {
    const { phase, plan } = heaviest(spec, config);
    const top = plan.byLayer[0];
    const share = Math.round((plan.categories.savedActivations / plan.peakBytes) * 100);
    arithmetic.unshift(
      `Predicted: the ${phase} step peaks at ${formatBytes(plan.peakBytes)} in the ${plan.at} pass; saved activations are ${share}% of it${top ? `; ${top.layer} holds the most (${formatBytes(top.bytes)})` : ''}.`,
    );
  }
  return card({
    id: 'diagnose',
    remedy: 11,
    title: 'Diagnose before guessing',
    changes: 'Read which device ran out, what holds the bytes, and the layer at the peak.',
    why: 'The fix depends on the category that crosses the card: weights, optimizer slots, input or activations.',
    arithmetic,
    noRun: 'Diagnosis reads a run: the memory view’s curve marks the layer at the peak.',
  });
}

/** The remedy cards, 1 to 11. */
export function remedyCards(ctx: ExperimentContext): ExperimentCard[] {
  return [
    unfreezeTop(ctx),
    mixedPrecision(ctx),
    smallerBatch(ctx),
    memoryGrowth(ctx),
    memoryLimit(ctx),
    clearSession(),
    lowerResolution(ctx),
    inputPipeline(ctx),
    accumulate(ctx),
    lighterBlocks(ctx),
    diagnose(ctx),
  ];
}
