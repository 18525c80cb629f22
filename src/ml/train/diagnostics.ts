import * as tf from '@tensorflow/tfjs';
import {
  classScores,
  confusionMatrix,
  type DiagnosticsReport,
  type Misclassified,
  type Thumbnail,
} from '../../core/diagnostics';
import type { TrainingPhase } from '../../core/trainConfig';
import type { Batch } from '../data/pipeline';
import { inPhase } from '../memory/stepPhase';
import { forEachBatch } from './iteration';

/** The longest side of a thumbnail: 64×64 RGBA is 16 KB, cheap to post to the page and to keep in the store. */
export const THUMBNAIL_SIDE = 64;
/** Thumbnails per report, so a bad model on a large split does not post megabytes of pixels. */
export const MAX_THUMBNAILS = 32;
/** Thumbnails per (true, predicted) cell, so every cell the user clicks has some pictures. */
export const MAX_THUMBNAILS_PER_CELL = 8;

export interface DiagnoseOptions {
  phase: TrainingPhase;
  /** Paths of the validation split in its order (the data set's order: validation is never shuffled). */
  paths: readonly string[];
  /** Once true, the pass ends early and the report covers the images scored so far. */
  shouldStop?: () => boolean;
  /** Ends the data set early after a failure (see forEachBatch). */
  abort?: () => void;
  /** The model's input for a batch of images, when it is not the images (a graph model's features). */
  headInput?: (xs: tf.Tensor4D) => tf.Tensor;
}

/** Counts thumbnails against the per-report and per-cell bounds, in the order images arrive. */
class ThumbnailBudget {
  private taken = 0;
  private readonly perCell = new Map<string, number>();

  take(label: number, predicted: number): boolean {
    const key = `${label}:${predicted}`;
    const inCell = this.perCell.get(key) ?? 0;
    if (this.taken >= MAX_THUMBNAILS || inCell >= MAX_THUMBNAILS_PER_CELL) return false;
    this.perCell.set(key, inCell + 1);
    this.taken++;
    return true;
  }
}

/**
 * RGBA thumbnails of some rows of a [n, h, w, 3] batch in 0–255, shrunk to fit THUMBNAIL_SIDE. The
 * pixels are what the model saw (resized, never augmented: validation data is not augmented).
 */
export async function thumbnails(xs: tf.Tensor4D, rows: readonly number[]): Promise<Map<number, Thumbnail>> {
  const out = new Map<number, Thumbnail>();
  if (rows.length === 0) return out;
  const [, h, w] = xs.shape;
  const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(h, w));
  const height = Math.max(1, Math.round(h * scale));
  const width = Math.max(1, Math.round(w * scale));
  const rgba = tf.tidy(() => {
    const picked = tf.gather(xs, tf.tensor1d(rows as number[], 'int32'));
    const small = scale < 1 ? tf.image.resizeBilinear(picked, [height, width], false, true) : picked;
    const rgb = tf.clipByValue(tf.round(small), 0, 255);
    const alpha = tf.fill([rows.length, height, width, 1], 255);
    return tf.concat([rgb, alpha], 3).toInt();
  });
  const data = await rgba.data();
  rgba.dispose();
  const size = height * width * 4;
  rows.forEach((row, k) => {
    out.set(row, { width, height, rgba: Uint8ClampedArray.from(data.subarray(k * size, (k + 1) * size)) });
  });
  return out;
}

/** Arg-max class and its probability for each image, in inference mode (dropout off, BN on moving stats). */
async function predict(
  model: tf.LayersModel,
  xs: tf.Tensor4D,
  headInput?: DiagnoseOptions['headInput'],
): Promise<{ classes: Int32Array; confidence: Float32Array }> {
  const [classes, confidence] = inPhase('evaluation', () =>
    tf.tidy(() => {
      const probs = model.apply(headInput ? headInput(xs) : xs, { training: false }) as tf.Tensor2D;
      return [tf.argMax(probs, 1), tf.max(probs, 1)];
    }),
  );
  const [c, p] = await Promise.all([classes!.data(), confidence!.data()]);
  tf.dispose([classes, confidence]);
  return { classes: Int32Array.from(c), confidence: Float32Array.from(p) };
}

/**
 * The model's diagnostics on the validation data set: confusion matrix, per-class scores, and every
 * misclassified image with its path, true and predicted class, confidence and (bounded) a thumbnail.
 */
export async function diagnose(
  model: tf.LayersModel,
  dataset: tf.data.Dataset<Batch>,
  opts: DiagnoseOptions,
): Promise<DiagnosticsReport> {
  const labels: number[] = [];
  const predicted: number[] = [];
  const misclassified: Misclassified[] = [];
  const budget = new ThumbnailBudget();
  await forEachBatch(
    dataset,
    opts.shouldStop ?? (() => false),
    async ({ xs, ys }) => {
      const offset = labels.length;
      const { classes, confidence } = await predict(model, xs, opts.headInput);
      const truth = await ys.data();
      const wrong: number[] = [];
      classes.forEach((p, i) => {
        labels.push(truth[i]!);
        predicted.push(p);
        if (p !== truth[i]) wrong.push(i);
      });
      const pictures = await thumbnails(
        xs,
        wrong.filter((i) => budget.take(truth[i]!, classes[i]!)),
      );
      for (const i of wrong)
        misclassified.push({
          index: offset + i,
          path: opts.paths[offset + i] ?? `validation image ${offset + i + 1}`,
          label: truth[i]!,
          predicted: classes[i]!,
          confidence: confidence[i]!,
          thumbnail: pictures.get(i) ?? null,
        });
    },
    opts.abort,
  );
  // The classifier's last layer has one unit per class.
  const numClasses = model.outputs[0]!.shape.at(-1) ?? 0;
  const counts = confusionMatrix(labels, predicted, numClasses);
  return {
    phase: opts.phase,
    counts,
    perClass: classScores(counts),
    total: labels.length,
    correct: labels.length - misclassified.length,
    misclassified,
  };
}
