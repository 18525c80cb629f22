// A run saved at the end of every completed epoch so a reload or crash loses nothing that can be kept:
// what is saved, where the run continues, and whether the data at hand are the data it trained on.
// Pure: the tensors travel as host copies, IndexedDB is an adapter at the edge (browser/runStore.ts).
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';

/** One tensor's values, copied to the host. */
export interface SavedTensor {
  shape: number[];
  dtype: 'float32' | 'int32';
  values: Float32Array | Int32Array;
}

/** What a rebuilt trainer needs besides the settings to continue exactly where it was. */
export interface TrainerSnapshot {
  /** Every model variable layer by layer: trainable and frozen, BatchNorm moving statistics included. */
  weights: SavedTensor[];
  /** Adam's getWeights(): the iteration count, then first and second moments by position. */
  optimizer: SavedTensor[];
  /** Forward passes drawn so far (each seeds its own dropout masks). */
  draws: number;
}

/** Where a run continues: the next epoch to run, and what the loop had made of the epochs before it. */
export interface ResumePoint {
  /** The phase to continue (found by name in the plan, which may start at fine-tuning after a fix). */
  phase: TrainingPhase;
  /** Its next epoch, 0-based; 0 starts the phase afresh (recompiled, a new optimizer). */ epoch: number;
  /** Its planned epochs. */ phaseEpochs: number;
  /** Epochs run across phases: seeds the next epoch's shuffling and augmentation. */ epochIndex: number;
  /** Phases that ran before this one, in order. */ phasesDone: TrainingPhase[];
  /** This phase's val_loss so far, replayed into EarlyStopping. */ valLosses: number[];
  /** The last validation metrics. */ last: { loss: number; accuracy: number };
}

/** A phase of the plan as far as resuming is concerned. */
export interface PlannedPhase {
  phase: TrainingPhase;
  epochs: number;
}

/** An epoch that has just ended, as the run loop knows it. */
export interface EndedEpoch {
  /** Index of its phase in the plan. */ phaseIndex: number;
  /** 0-based within the phase. */ epoch: number;
  /** Whether EarlyStopping ended the phase with this epoch. */ earlyStopped: boolean;
  /** The run's epoch count as the next epoch would use it. */ nextEpochIndex: number;
  /** Phases that ran, this one included. */ phases: TrainingPhase[];
  /** This phase's val_loss, this epoch included. */ valLosses: number[];
  last: { loss: number; accuracy: number };
}

/**
 * Where the run continues after an epoch: the same phase's next epoch, or the next phase with epochs at
 * its start; null when no epoch is left (the run is over once its diagnostics are written).
 */
export function pointAfter(plan: readonly PlannedPhase[], e: EndedEpoch): ResumePoint | null {
  const current = plan[e.phaseIndex];
  if (!current) return null;
  const common = { epochIndex: e.nextEpochIndex, last: e.last };
  if (!e.earlyStopped && e.epoch + 1 < current.epochs) {
    return {
      ...common,
      phase: current.phase,
      epoch: e.epoch + 1,
      phaseEpochs: current.epochs,
      phasesDone: e.phases.slice(0, -1),
      valLosses: e.valLosses,
    };
  }
  const next = plan.findIndex((p, i) => i > e.phaseIndex && p.epochs > 0);
  if (next < 0) return null;
  const p = plan[next]!;
  return {
    ...common,
    phase: p.phase,
    epoch: 0,
    phaseEpochs: p.epochs,
    phasesDone: e.phases,
    valLosses: [],
  };
}

/** Which data a run trained on: enough to refuse resuming on other data. */
export interface DatasetIdentity {
  /** 'Built-in sample' or the dropped folder's name. */ name: string;
  /** Images in the data set (both splits). */ images: number;
  /** A hash of the class names and, per image, its path, label, size and modification time (or URL). */
  fingerprint: string;
}

/** One image as the fingerprint sees it. */
export interface FingerprintItem {
  path: string;
  label: number;
  /** File size and lastModified for a dropped file; the URL for a built-in image. */
  size?: number;
  lastModified?: number;
  url?: string;
}

/**
 * Two FNV-1a hashes with different offsets, fed piece by piece, read as 16 hex digits: a collision would
 * need both to collide.
 */
class Hash64 {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x5bd1e995;

  update(text: string): void {
    let { a, b } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x01000193) >>> 0;
    }
    this.a = a;
    this.b = b;
  }

  digest(): string {
    return this.a.toString(16).padStart(8, '0') + this.b.toString(16).padStart(8, '0');
  }
}

/** Lines hashed between two pauses of `datasetIdentitySliced`: a few milliseconds of work. */
const LINES_PER_SLICE = 2000;

/**
 * The identity of a data set. Items are sorted by path, so the order the browser listed them in does
 * not matter; the split is then a function of the items and the settings' seed, so the same identity
 * and settings give the same split.
 */
export function datasetIdentity(
  name: string,
  classes: readonly string[],
  items: readonly FingerprintItem[],
): DatasetIdentity {
  const steps = hashIdentity(name, classes, items);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same identity, computed in slices with `pause()` awaited between them, so a big data set's
 * identity (20,000 images: one 60–110 ms task) never holds the page for long.
 */
export async function datasetIdentitySliced(
  name: string,
  classes: readonly string[],
  items: readonly FingerprintItem[],
  pause: () => Promise<void>,
): Promise<DatasetIdentity> {
  const steps = hashIdentity(name, classes, items);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** The identity's hashing, yielding after each slice of `LINES_PER_SLICE` lines but the last. */
function* hashIdentity(
  name: string,
  classes: readonly string[],
  items: readonly FingerprintItem[],
): Generator<void, DatasetIdentity> {
  const hash = new Hash64();
  hash.update(classes.join('\t'));
  const sorted = sortedByPath(items);
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && i % LINES_PER_SLICE === 0) yield;
    hash.update(`\n${line(sorted[i]!)}`);
  }
  return { name, images: items.length, fingerprint: hash.digest() };
}

function sortedByPath(items: readonly FingerprintItem[]): FingerprintItem[] {
  return [...items].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function line(i: FingerprintItem): string {
  return [i.path, i.label, i.size ?? '', i.lastModified ?? '', i.url ?? ''].join('\t');
}

/** Why the data at hand cannot continue the saved run, or null when they are the same data. */
export function dataMismatch(saved: DatasetIdentity, current: DatasetIdentity | null): string | null {
  if (!current)
    return `Load the data the run trained on first ("${saved.name}", ${saved.images} images), then press Resume: the browser cannot reopen a dropped folder by itself.`;
  if (current.fingerprint === saved.fingerprint) return null;
  return `Resume refused: the loaded data ("${current.name}", ${current.images} images) are not the data the run trained on ("${saved.name}", ${saved.images} images; file names, sizes and dates must match). Load the same files, or discard the saved run.`;
}

/** What the page shows of a saved run before it is resumed. */
export interface SavedRunSummary {
  /** Date.now() when the last epoch was saved. */ savedAt: number;
  /** The settings the run trained with; a resume trains with these. */ config: TrainConfig;
  data: DatasetIdentity;
  point: ResumePoint;
  /** Approximate bytes of the saved weights and optimizer state. */ bytes: number;
}

/** A saved run: its summary, the trainer's state, and the page's history of it (charts, log). */
export interface SavedRun<History = unknown> extends SavedRunSummary {
  /** Format of the record; a record of another version is discarded, not misread. */ version: 1;
  state: TrainerSnapshot;
  history: History;
}

/** The largest saved run kept (weights and Adam slots); a larger one is not saved, and the page says so. */
export const MAX_SAVED_RUN_BYTES = 512 * 2 ** 20;

/** Bytes of a snapshot's tensors. */
export function snapshotBytes(state: TrainerSnapshot): number {
  return [...state.weights, ...state.optimizer].reduce((n, t) => n + t.values.byteLength, 0);
}

/** "epoch 2 of the frozen phase": where a resume continues, 1-based, as the button says it. */
export function resumeLabel(point: ResumePoint): string {
  return `epoch ${point.epoch + 1} of the ${point.phase} phase`;
}
