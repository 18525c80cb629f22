import * as tf from '@tensorflow/tfjs';
import { trainableLayers, type ModelSpec } from '../src/core/modelSpec';
import { planKeras, planTfjs, predictionError } from '../src/core/planner';
import { describeModel } from '../src/ml/memory/describe';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../src/ml/models/efficientnet';
import { noiseBatch } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';

/** One configuration of the planner's accuracy table, measured and predicted. */
export interface PlannerRow {
  backend: string;
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

type Preset = {
  label: string;
  phase: 'frozen' | 'fine-tune';
  unfreeze: number;
  outside: boolean;
  accumulationSteps?: number;
  checkpointing?: 'off' | 'blocks';
};

const PRESETS: Preset[] = [
  { label: 'frozen, backbone outside tape', phase: 'frozen', unfreeze: 0, outside: true },
  { label: 'frozen, backbone on tape', phase: 'frozen', unfreeze: 0, outside: false },
  { label: 'last 30 layers', phase: 'fine-tune', unfreeze: 30, outside: false },
  { label: 'last 80 layers', phase: 'fine-tune', unfreeze: 80, outside: false },
  { label: 'all layers', phase: 'fine-tune', unfreeze: 10_000, outside: false },
];

/** Memory-saving techniques (issue 5), planned and measured at each size's largest batch. */
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

/** One configuration measured with tf.profile (after a warm-up step that creates Adam's slots) and planned. */
async function measureRow(
  model: tf.LayersModel,
  backboneLayerCount: number,
  spec: ModelSpec,
  size: number,
  batch: number,
  preset: Preset,
): Promise<PlannerRow> {
  const accumulationSteps = preset.accumulationSteps ?? 1;
  const checkpointing = preset.checkpointing ?? 'off';
  const trainer = new Trainer(model, backboneLayerCount, {
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
      config: `Tiny ${size}×${size} batch ${batch}, ${preset.label}`,
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
 * The planner against tf.profile over sizes × batches × trainable sets (30 configurations by default),
 * then the memory-saving techniques at each size's largest batch (8 more by default; `techniques: false`
 * leaves them out), on the active backend. Environment-agnostic: runs in Node on cpu and in Chromium on
 * webgpu. The Keras column plans the same step without the techniques, which tfjs alone needs.
 */
export async function plannerRows(
  opts: {
    sizes?: number[];
    batches?: number[];
    techniques?: boolean;
    onRow?: (row: PlannerRow) => void;
  } = {},
): Promise<PlannerRow[]> {
  const { sizes = [32, 48], batches = [2, 4, 8], techniques = true } = opts;
  const rows: PlannerRow[] = [];
  for (const size of sizes) {
    const { model, backboneLayerCount } = buildClassifier({
      ...EFFICIENTNET_PRESETS.tiny,
      height: size,
      width: size,
      numClasses: 3,
      seed: 1,
    });
    const spec = describeModel(model, backboneLayerCount);
    const configs: [number, Preset][] = [
      ...PRESETS.flatMap((preset) => batches.map((batch): [number, Preset] => [batch, preset])),
      ...(techniques ? TECHNIQUES.map((preset): [number, Preset] => [Math.max(...batches), preset]) : []),
    ];
    try {
      for (const [batch, preset] of configs) {
        const row = await measureRow(model, backboneLayerCount, spec, size, batch, preset);
        rows.push(row);
        opts.onRow?.(row);
      }
    } finally {
      model.dispose();
    }
  }
  return rows;
}
