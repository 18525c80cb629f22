import * as tf from '@tensorflow/tfjs';
import { trainableLayers, type ModelSpec } from '../src/core/model/modelSpec';
import { planKeras, planTfjs, predictionError } from '../src/core/planner/planner';
import { describeModel } from '../src/ml/memory/describe';
import type { Classifier } from '../src/ml/models/head';
import { labFamilyModel, noiseBatch, smallEfficientNetV2 } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';

/** One configuration of the planner's accuracy table, measured and predicted. */
export interface PlannerRow {
  backend: string;
  /** The model family the row measures, e.g. 'MobileNetV2'; the targets hold per family. */
  family: string;
  config: string;
  measured: number;
  predicted: number;
  keras: number;
  /** Signed error of the prediction, in percent of the measurement. */
  error: number;
  at: string;
  /** Whether the step used a memory-saving technique (accumulation or checkpointing). */
  technique: boolean;
}

/** A family the lab builds, at sizes and batches a cpu step of every trainable mode can afford. */
interface Family {
  family: string;
  /** The model as the row names it. */
  label: string;
  sizes: number[];
  batches: number[];
  build(size: number): Classifier;
  /** Whether the technique rows run on this family too. */
  techniques?: boolean;
}

const lab = labFamilyModel;

/**
 * Every family the lab builds, as the lab builds it (preprocessing layers included). MobileNetV2 is the
 * full network with the packaged weights' ×1/255 preprocessing (random weights: memory does not depend
 * on their values); its full fine-tune costs most of the bench's time (about 80 s a step on cpu at
 * 64 px, batch 4, where it peaks in backprop), so its batches stay small.
 */
const FAMILIES: Family[] = [
  {
    family: 'MobileNetV2',
    label: 'MobileNetV2 ×1/255',
    sizes: [32, 64],
    batches: [2, 4],
    build: (size) => lab('mobilenetv2', size),
  },
  {
    family: 'EfficientNet B0-style',
    label: 'Tiny',
    sizes: [32, 48],
    batches: [2, 8],
    build: (size) => lab('tiny', size),
    techniques: true,
  },
  {
    family: 'EfficientNet-Lite0',
    label: 'Lite0 (x − 127) / 128',
    sizes: [32, 48],
    batches: [2, 4],
    build: (size) => lab('lite0', size),
  },
  {
    family: 'EfficientNetV2',
    label: 'V2-B0 ¼w ½d',
    sizes: [32, 48],
    batches: [2, 8],
    build: smallEfficientNetV2,
  },
];

type Preset = {
  label: string;
  phase: 'frozen' | 'fine-tune';
  unfreeze: number;
  outside: boolean;
  accumulationSteps?: number;
  checkpointing?: 'off' | 'blocks';
};

/** Every trainable mode of the lab's two phases. */
const PRESETS: Preset[] = [
  { label: 'frozen, backbone outside tape', phase: 'frozen', unfreeze: 0, outside: true },
  { label: 'frozen, backbone on tape', phase: 'frozen', unfreeze: 0, outside: false },
  { label: 'last 30 layers', phase: 'fine-tune', unfreeze: 30, outside: false },
  { label: 'all layers', phase: 'fine-tune', unfreeze: 10_000, outside: false },
];

/** Memory-saving techniques (issue 5), planned and measured on Tiny at each size's largest batch. */
const TECHNIQUES: Preset[] = [
  {
    label: 'all layers, accumulate 2',
    phase: 'fine-tune',
    unfreeze: 10_000,
    outside: false,
    accumulationSteps: 2,
  },
  {
    label: 'all layers, accumulate 4',
    phase: 'fine-tune',
    unfreeze: 10_000,
    outside: false,
    accumulationSteps: 4,
  },
  {
    label: 'all layers, checkpointed',
    phase: 'fine-tune',
    unfreeze: 10_000,
    outside: false,
    checkpointing: 'blocks',
  },
  {
    label: 'last 80 layers, checkpointed',
    phase: 'fine-tune',
    unfreeze: 80,
    outside: false,
    checkpointing: 'blocks',
  },
];

/** What a row measures: a built model of a family at one size and batch, with one preset. */
interface RowCase {
  family: Family;
  model: tf.LayersModel;
  backboneLayerCount: number;
  spec: ModelSpec;
  size: number;
  batch: number;
  preset: Preset;
}

/** One configuration measured with tf.profile (after a warm-up step that creates Adam's slots) and planned. */
async function measureRow(c: RowCase): Promise<PlannerRow> {
  const { preset, spec, batch, size } = c;
  const accumulationSteps = preset.accumulationSteps ?? 1;
  const checkpointing = preset.checkpointing ?? 'off';
  const trainer = new Trainer(c.model, c.backboneLayerCount, {
    frozenBackboneOutsideTape: preset.outside,
    accumulationSteps,
    checkpointing,
  });
  trainer.compile(preset.phase, 1e-3, preset.unfreeze);
  const data = noiseBatch(batch, size, 3, 1);
  try {
    await trainer.step(data);
    const profile = await tf.profile(async () => {
      await trainer.step(data);
    });
    const input = {
      spec,
      batch,
      trainable: trainableLayers(spec, preset.phase, preset.unfreeze),
      optimizer: 'adam' as const,
      backboneOutsideTape: preset.phase === 'frozen' && preset.outside,
      accumulationSteps,
      checkpointing,
    };
    const plan = planTfjs(input);
    return {
      backend: tf.getBackend(),
      family: c.family.family,
      config: `${c.family.label} ${size}×${size} batch ${batch}, ${preset.label}`,
      measured: profile.peakBytes,
      predicted: plan.peakBytes,
      keras: planKeras(input).peakBytes,
      error: predictionError(plan.peakBytes, profile.peakBytes),
      at: plan.at,
      technique: accumulationSteps > 1 || checkpointing !== 'off',
    };
  } finally {
    tf.dispose([data.xs, data.ys]);
    trainer.dispose();
  }
}

/**
 * The planner against tf.profile on the active backend: for each family, sizes × batches × trainable
 * modes (48 configurations by default), then the memory-saving techniques on Tiny at each size's
 * largest batch (8 more; `techniques: false` leaves them out). Environment-agnostic: runs in Node on cpu
 * and in Chromium on webgpu. The Keras column plans the same step without the techniques, which tfjs
 * alone needs.
 */
export async function plannerRows(
  opts: {
    techniques?: boolean;
    /** Only these families (e.g. 'EfficientNet-Lite0'); all when absent. */
    families?: readonly string[];
    onRow?: (row: PlannerRow) => void;
  } = {},
): Promise<PlannerRow[]> {
  const { techniques = true, families } = opts;
  const rows: PlannerRow[] = [];
  for (const family of FAMILIES.filter((f) => !families || families.includes(f.family))) {
    for (const size of family.sizes) {
      const presets: [number, Preset][] = [
        ...PRESETS.flatMap((preset) => family.batches.map((batch): [number, Preset] => [batch, preset])),
        ...(techniques && family.techniques
          ? TECHNIQUES.map((preset): [number, Preset] => [Math.max(...family.batches), preset])
          : []),
      ];
      const { model, backboneLayerCount } = family.build(size);
      const spec = describeModel(model, backboneLayerCount);
      try {
        for (const [batch, preset] of presets) {
          const row = await measureRow({ family, model, backboneLayerCount, spec, size, batch, preset });
          rows.push(row);
          opts.onRow?.(row);
        }
      } finally {
        model.dispose();
      }
    }
  }
  return rows;
}
