/**
 * The planner's Keras/CUDA prediction for the configurations gpu/keras_peak.py measures, as JSON lines.
 *
 * The model is described the way the page describes it (browser/labModels.ts `describe`): the lab's
 * classifier (Keras backbone with include_preprocessing, the seed's head) built with zero weights, then
 * `describeModel`. Each batch is planned as the planner table's "Keras/CUDA" columns plan it
 * (components/planner/planRows.ts): `planKeras(planInput(spec, config, 'fine-tune'))`, float32 and
 * 'mixed_float16'.
 *
 *   npx tsx gpu/predict.ts                       EfficientNetV2-L, 300×500, batches 1 4 8 16 28
 *   npx tsx gpu/predict.ts --smoke               EfficientNetV2-B0, 64×64, batch 2 (keras_peak.py --smoke)
 *   npx tsx gpu/predict.ts --model v2-s --height 224 --width 224 --batches 2,8 --classes 6
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelId } from '../src/core/model/models';
import { planInput, planKeras, type Precision } from '../src/core/planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../src/core/settings/settings';
import type { TrainConfig } from '../src/core/settings/trainConfig';
import { describeModel } from '../src/ml/memory/describe';
import { buildClassifier, modelInfo } from '../src/ml/models/registry';

interface Options {
  model: ModelId;
  height: number;
  width: number;
  classes: number;
  batches: number[];
}

const FULL: Options = { model: 'v2-l', height: 300, width: 500, classes: 6, batches: [1, 4, 8, 16, 28] };
const SMOKE: Options = { model: 'v2-b0', height: 64, width: 64, classes: 6, batches: [2] };

function options(argv: string[]): Options {
  const o = { ...(argv.includes('--smoke') ? SMOKE : FULL) };
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const number = (flag: string, fallback: number): number => {
    const v = value(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a positive integer, got '${v}'.`);
    return n;
  };
  const model = value('--model');
  if (model !== undefined) o.model = modelInfo(model as ModelId).id;
  o.height = number('--height', o.height);
  o.width = number('--width', o.width);
  o.classes = number('--classes', o.classes);
  const batches = value('--batches');
  if (batches !== undefined) o.batches = batches.split(',').map((b) => number('--batches', Number(b) || 0));
  return o;
}

/** The fine-tune phase with every layer trainable: Keras' `base_model.trainable = True`. */
function fineTuneAll(o: Options, batch: number): TrainConfig {
  return {
    ...DEFAULT_TRAIN_CONFIG,
    model: o.model,
    weights: 'random',
    height: o.height,
    width: o.width,
    batchSize: batch,
    fineTune: { kind: 'all' },
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  await tf.setBackend('cpu');
  const built = buildClassifier({
    id: o.model,
    height: o.height,
    width: o.width,
    includePreprocessing: true,
    numClasses: o.classes,
    seed: 1,
    init: 'zeros',
  });
  const spec = describeModel(built.model, built.backboneLayerCount);
  built.model.dispose();
  const precisions: Precision[] = ['float32', 'mixed_float16'];
  for (const batch of o.batches) {
    const input = planInput(spec, fineTuneAll(o, batch), 'fine-tune');
    for (const precision of precisions) {
      const plan = planKeras(input, precision);
      const line = {
        kind: 'predicted',
        model: modelInfo(o.model).kerasName,
        height: o.height,
        width: o.width,
        classes: o.classes,
        batch,
        precision,
        peak_bytes: plan.peakBytes,
        peak_mib: Number((plan.peakBytes / 2 ** 20).toFixed(1)),
        categories: plan.categories,
      };
      console.log(JSON.stringify(line));
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
