import * as tf from '@tensorflow/tfjs';
import { trainableLayers } from '../src/core/modelSpec';
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
}

type Preset = { label: string; phase: 'frozen' | 'fine-tune'; unfreeze: number; outside: boolean };

const PRESETS: Preset[] = [
  { label: 'frozen, backbone outside tape', phase: 'frozen', unfreeze: 0, outside: true },
  { label: 'frozen, backbone on tape', phase: 'frozen', unfreeze: 0, outside: false },
  { label: 'last 30 layers', phase: 'fine-tune', unfreeze: 30, outside: false },
  { label: 'last 80 layers', phase: 'fine-tune', unfreeze: 80, outside: false },
  { label: 'all layers', phase: 'fine-tune', unfreeze: 10_000, outside: false },
];

/**
 * The planner against tf.profile over sizes × batches × trainable sets (30 configurations by default)
 * on the active backend. Environment-agnostic: runs in Node on cpu and in Chromium on webgpu.
 */
export async function plannerRows(
  opts: { sizes?: number[]; batches?: number[]; onRow?: (row: PlannerRow) => void } = {},
): Promise<PlannerRow[]> {
  const { sizes = [32, 48], batches = [2, 4, 8] } = opts;
  const backend = tf.getBackend();
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
    for (const preset of PRESETS) {
      for (const batch of batches) {
        const trainer = new Trainer(model, backboneLayerCount, { frozenBackboneOutsideTape: preset.outside });
        trainer.compile(preset.phase, 1e-3, preset.unfreeze);
        const data = noiseBatch(batch, size, 3, 1);
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
        };
        const plan = planTfjs(input);
        const row: PlannerRow = {
          backend,
          config: `Tiny ${size}×${size} batch ${batch}, ${preset.label}`,
          measured: profile.peakBytes,
          predicted: plan.peakBytes,
          keras: planKeras(input).peakBytes,
          error: predictionError(plan.peakBytes, profile.peakBytes),
          at: plan.at,
        };
        rows.push(row);
        opts.onRow?.(row);
        tf.dispose([data.xs, data.ys]);
        trainer.dispose();
      }
    }
    model.dispose();
  }
  return rows;
}
