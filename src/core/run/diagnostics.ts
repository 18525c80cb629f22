/**
 * Classifier diagnostics on the validation split: the confusion matrix, per-class scores and the
 * misclassified images. The counting is pure (here, tested on hand-counted fixtures); ml/train/diagnostics
 * runs the model and fills in the predictions and thumbnails.
 */
import type { TrainingPhase } from '../settings/trainConfig';

/** A small RGBA picture of one validation image, as the model saw it (resized, never augmented). */
export interface Thumbnail {
  width: number;
  height: number;
  /** RGBA pixels, 0–255, row-major: ready for ImageData. */ rgba: Uint8ClampedArray;
}

/** One validation image the model got wrong. */
export interface Misclassified {
  /** Index into the validation split, in its order. */ index: number;
  /** Path relative to the dropped folder. */ path: string;
  /** True class index. */ label: number;
  /** Predicted class index (the arg-max). */ predicted: number;
  /** The predicted class's probability. */ confidence: number;
  /** The picture, for a bounded number of images (see ml/train/diagnostics); null beyond them. */
  thumbnail: Thumbnail | null;
}

/** Scores of one class, one-vs-rest. NaN where the denominator is 0 (no such prediction, no such image). */
export interface ClassScores {
  /** Of the images predicted as this class, the share that are: TP / (TP + FP). */ precision: number;
  /** Of this class's images, the share predicted right: TP / (TP + FN) (Teachable Machine's "accuracy per class"). */
  recall: number;
  /** One-vs-rest accuracy over all images: (TP + TN) / N. */ accuracy: number;
  /** Images of this class in the split. */ support: number;
}

/** The diagnostics of one phase. */
export interface DiagnosticsReport {
  phase: TrainingPhase;
  /** counts[t][p]: validation images of true class t predicted as p. */ counts: number[][];
  perClass: ClassScores[];
  /** Images scored (the validation split, unless Stop cut it short). */ total: number;
  /** Images predicted right. */ correct: number;
  /** Every misclassified image, in validation order. */ misclassified: Misclassified[];
}

/** counts[t][p] from true and predicted labels of equal length. */
export function confusionMatrix(
  labels: ArrayLike<number>,
  predicted: ArrayLike<number>,
  numClasses: number,
): number[][] {
  if (labels.length !== predicted.length)
    throw new Error(`${labels.length} labels but ${predicted.length} predictions.`);
  const counts = Array.from({ length: numClasses }, () => new Array<number>(numClasses).fill(0));
  for (let i = 0; i < labels.length; i++) {
    const row = counts[labels[i]!];
    const p = predicted[i]!;
    if (!row || p < 0 || p >= numClasses)
      throw new Error(`Label ${labels[i]} or prediction ${p} outside 0–${numClasses - 1}.`);
    row[p]!++;
  }
  return counts;
}

/** Each row divided by its sum (the share of a true class predicted as each class); a row of 0s stays 0. */
export function rowNormalised(counts: readonly (readonly number[])[]): number[][] {
  return counts.map((row) => {
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((c) => (sum === 0 ? 0 : c / sum));
  });
}

const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);

/** Precision, recall, one-vs-rest accuracy and support of every class. */
export function classScores(counts: readonly (readonly number[])[]): ClassScores[] {
  const total = counts.reduce((n, row) => n + row.reduce((a, b) => a + b, 0), 0);
  return counts.map((row, k) => {
    const tp = row[k] ?? 0;
    const support = row.reduce((a, b) => a + b, 0);
    const predictedK = counts.reduce((n, r) => n + (r[k] ?? 0), 0);
    const fp = predictedK - tp;
    const fn = support - tp;
    return {
      precision: ratio(tp, predictedK),
      recall: ratio(tp, support),
      accuracy: ratio(total - fp - fn, total),
      support,
    };
  });
}

/** The misclassified images of a filter: one (true, predicted) cell, or all of them. */
export function misclassifiedIn(
  report: Pick<DiagnosticsReport, 'misclassified'>,
  cell: { label: number; predicted: number } | null,
): Misclassified[] {
  return cell === null
    ? report.misclassified
    : report.misclassified.filter((m) => m.label === cell.label && m.predicted === cell.predicted);
}
