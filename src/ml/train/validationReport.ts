import type * as tf from '@tensorflow/tfjs';
import {
  classScores,
  confusionMatrix,
  type DiagnosticsReport,
  type Misclassified,
} from '../../core/run/diagnostics';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import type { Batch } from '../data/pipeline';
import { ThumbnailBudget, thumbnails } from './diagnostics';
import { forEachBatch } from './iteration';

/** What one validation pass predicted for each image, in the data set's order (validation is never shuffled). */
export interface Predictions {
  labels: number[];
  classes: number[];
  confidence: number[];
  numClasses: number;
}

export interface ReportOptions {
  phase: TrainingPhase;
  /** Paths of the validation split in its order. */
  paths: readonly string[];
  /** Once true, the thumbnails stop; the report still covers every scored image. */
  shouldStop?: () => boolean;
  /** Ends the data set early after a failure (see forEachBatch). */
  abort?: () => void;
}

/** Which misclassified images get a thumbnail: in order, within ThumbnailBudget's bounds. */
function thumbnailed(wrong: readonly number[], p: Predictions): Set<number> {
  const budget = new ThumbnailBudget();
  return new Set(wrong.filter((i) => budget.take(p.labels[i]!, p.classes[i]!)));
}

/**
 * The phase's diagnostics (confusion matrix, per-class scores, every misclassified image) from the
 * predictions of its last validation pass: the weights have not changed since, and inference mode is
 * deterministic, so a second pass of the model would predict exactly the same. Only the pictures of the
 * misclassified images are read again: `images` is the validation split, decoded but never run through
 * the model (on a software adapter that second pass cost as much as the validation pass itself).
 */
export async function validationReport(
  predictions: Predictions,
  images: () => tf.data.Dataset<Batch>,
  opts: ReportOptions,
): Promise<DiagnosticsReport> {
  const p = predictions;
  const wrong = p.labels.flatMap((label, i) => (p.classes[i] === label ? [] : [i]));
  const picked = thumbnailed(wrong, p);
  const pictures = new Map<number, Misclassified['thumbnail']>();
  if (picked.size > 0) {
    let offset = 0;
    await forEachBatch(
      images(),
      opts.shouldStop ?? (() => false),
      async ({ xs }) => {
        const n = xs.shape[0];
        const rows = [...picked].filter((i) => i >= offset && i < offset + n).map((i) => i - offset);
        for (const [row, pic] of await thumbnails(xs, rows)) pictures.set(offset + row, pic);
        offset += n;
      },
      opts.abort,
    );
  }
  const counts = confusionMatrix(p.labels, p.classes, p.numClasses);
  return {
    phase: opts.phase,
    counts,
    perClass: classScores(counts),
    total: p.labels.length,
    correct: p.labels.length - wrong.length,
    misclassified: wrong.map((i) => ({
      index: i,
      path: opts.paths[i] ?? `validation image ${i + 1}`,
      label: p.labels[i]!,
      predicted: p.classes[i]!,
      confidence: p.confidence[i]!,
      thumbnail: pictures.get(i) ?? null,
    })),
  };
}
