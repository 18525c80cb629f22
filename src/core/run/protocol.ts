// Messages between the UI thread and the training engine (a Web Worker, or the same thread as a
// fallback). Pure types: both sides import them, neither imports the other.
import type { ModelId, WeightsChoice } from '../model/models';
import type { ModelSpec } from '../model/modelSpec';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import type { SweepGrid, SweepPoint, SweepPreset } from '../sweep/sweep';
import type { BackendInfo, BackendRequest } from '../device/backend';
import type { MemorySample, StepBreakdown, StepProfile, StepTechnique } from '../memory/memory';
import type { OomDetails } from '../memory/oom';
import type { DiagnosticsReport } from './diagnostics';
import type { ResumePoint, TrainerSnapshot } from './resume';

/** The loss scale after a step, when dynamic loss scaling is on. */
export interface LossScaleInfo {
  /** The scale this step's loss was multiplied by. */ scale: number;
  /** The scale of the next step. */ nextScale: number;
  /** Whether this step's update was skipped (a gradient was not finite). */ skipped: boolean;
  /** Updates skipped so far in the phase. */ skippedSteps: number;
}

/** Where the engine reads one image from. */
export type ImageSource = { kind: 'file'; file: Blob } | { kind: 'url'; url: string };

/** One labelled image of the data set as it travels to the engine. */
export interface SourceItem {
  /** Path shown to the user, relative to the dropped folder. */ path: string;
  /** Class index into DatasetPayload.classes. */ label: number;
  /** Where to read the bytes. */ source: ImageSource;
}

/** The data set after scanning and splitting, as the engine receives it. */
export interface DatasetPayload {
  /** Class names; index = label. */ classes: string[];
  /** Training items. */ train: SourceItem[];
  /** Validation items. */ validation: SourceItem[];
}

/** What the engine reports while it works. */
export type EngineEvent =
  | { kind: 'backend'; info: BackendInfo }
  | {
      kind: 'phase';
      phase: TrainingPhase;
      /** Milliseconds since the run started (same clock as memory samples). */ t: number;
      trainableParams: number;
      totalParams: number;
      trainableLayers: number;
      batchesPerEpoch: number;
      epochs: number;
    }
  | {
      kind: 'batch';
      phase: TrainingPhase;
      epoch: number;
      batch: number;
      batchesPerEpoch: number;
      loss: number;
      accuracy: number;
      /** Wall time of this step in ms, measured. */ stepMs: number;
      /** The step's peak live bytes, as tf.profile would report them (measured at every kernel). */ peakBytes?: number;
      /** The step under tf.profile, in precise mode only. */ profile?: StepProfile;
      /** Bytes by category during this step, measured. */ breakdown: StepBreakdown;
      /** How the step ran (tape mode, micro-batches, checkpoint segments). */ technique: StepTechnique;
      /** Loss scaling after the step; null when off. */ lossScale: LossScaleInfo | null;
      t: number;
    }
  | {
      kind: 'epoch';
      phase: TrainingPhase;
      epoch: number;
      loss: number;
      accuracy: number;
      valLoss: number;
      valAccuracy: number;
      t: number;
    }
  | { kind: 'memory'; samples: MemorySample[] }
  | { kind: 'log'; level: 'info' | 'warn'; message: string }
  /** A sweep point finished (measured, out of memory, or skipped). */
  | { kind: 'sweep-point'; point: SweepPoint }
  /** Unsolicited: the GPU device went away (driver reset, GPU process died, or destroyed on purpose). */
  | { kind: 'device-lost'; reason: string; message: string }
  /** A phase ended: the classifier's diagnostics on the validation split. */
  | { kind: 'diagnostics'; report: DiagnosticsReport }
  /** An epoch ended with another to run: where the run would continue, and the trainer's state there. */
  | { kind: 'checkpoint'; point: ResumePoint; state: TrainerSnapshot };

/** How a run ended. */
export interface TrainResult {
  /**
   * 'completed': all epochs; 'early-stopped': patience ran out in the last phase; 'stopped': the user
   * pressed Stop; 'oom': memory ran out (see `oom`); the model keeps its last good weights.
   */
  outcome: 'completed' | 'early-stopped' | 'stopped' | 'oom';
  /** Phases that ran, in order. */ phases: TrainingPhase[];
  /** Last validation loss, NaN when no validation epoch finished. */ valLoss: number;
  /** Last validation accuracy, NaN when none finished. */ valAccuracy: number;
  /** What ran out, when outcome is 'oom'. */ oom?: OomDetails;
  /** Phase that was running when the run ended. */ lastPhase: TrainingPhase | null;
}

/** Result of provoking a real allocation failure on purpose (a lesson). */
export interface ProvokeResult {
  /** The failure as the lab caught it, or null when the backend did not fail. */ caught: OomDetails | null;
  /** Whether a small computation still gave the right answer afterwards. */ stillWorks: boolean;
  /** Backend bytes allocated (incl. pool) before and after, when the backend reports them. */
  allocatedBefore: number | null;
  allocatedAfter: number | null;
}

/** Memory before and after freeing everything and re-creating the backend (Keras' clear_session). */
export interface ReleaseResult {
  before: MemorySample;
  after: MemorySample;
  /** The backend as re-created. */ backend: BackendInfo;
}

/** An augmented sample for the preview grid. */
export interface PreviewImage {
  /** File the sample came from. */ path: string;
  /** Class name. */ className: string;
  /** RGBA pixels, 0–255, ready for ImageData. */ rgba: Uint8ClampedArray;
  width: number;
  height: number;
}

/** What the largest-batch search found. */
export interface LargestBatchResult {
  /** Largest batch whose measured step fit; null when even the smallest did not. */ largest: number | null;
  /**
   * The planner's largest batch under the simulated card, where the search started; null without a card
   * (the search then starts from the smallest batch) or when the planner says none fits.
   */
  predicted: number | null;
  /** Every probe, in order, with its measured or failed point. */ points: SweepPoint[];
}

/** A weights file or URL as the engine read it. */
export interface WeightsLoaded {
  kind: 'keras-h5' | 'tfjs-layers' | 'graph-model';
  /** File name or URL. */ label: string;
  /** What it is, in words, e.g. 'Keras HDF5 (Keras 2.15.0)'. */ format: string;
  /** Why it cannot be fine-tuned, for a GraphModel. */ reason?: string;
  /** A GraphModel's fixed input size: a run on it trains at this size. */
  inputSize?: { height: number; width: number };
}

/** Weights matched to a model by layer name, as the UI shows it. */
export interface WeightsReport {
  /** File, URL or package the weights come from. */ source: string;
  /** One sentence: parameters the source gives and parameters that stay random. */ headline: string;
  /** Model layers filled from a stored layer of another name ('head_dense ← dense'), by structure. */
  pairedByStructure: string[];
  matchedLayers: number;
  matchedParams: number;
  modelParams: number;
  sourceParams: number;
  /** Model layers with weights the source lacks (they keep their initial values). */ missing: string[];
  /** Source layers the model lacks (ignored). */ unexpected: string[];
  /** Weights whose shapes differ, one line each naming the layer; any makes the load fail. */ mismatches: string[];
  /** Why the weights cannot load, or null. */ error: string | null;
  /** Where the weights come from and what was changed, for packaged weights. */ provenance: string[];
}

/** One file of an exported model. */
export interface ModelFile {
  /** File name, e.g. 'model.json'. */ name: string;
  bytes: Uint8Array;
}

/** A lab model saved in this browser, as its list shows it; the zip itself is stored apart, same id. */
export interface SavedModelMeta {
  /** IndexedDB key; absent before the model is stored. */ id?: number;
  name: string;
  /** ISO date. */ savedAt: string;
  model: ModelId;
  height: number;
  width: number;
  numClasses: number;
  /** Class names in the head's order; empty when the lab did not know them. */ classes: string[];
  /** Last validation accuracy, 0–1, or null. */ valAccuracy: number | null;
  /** Size of the stored zip. */ bytes: number;
}

/** A lab model zip read and handed to the engine as the starting weights. */
export interface ZipLoaded {
  /** The zip's name. */ label: string;
  /** 'EfficientNet-Tiny at 32×32, 3 classes (a, b, c)'. */ summary: string;
}

/** An error as it crosses the thread boundary (Error objects lose their fields when cloned). */
export interface EngineError {
  /** Error class name, e.g. 'RangeError'. */ name: string;
  /** Human-readable message naming the file or setting at fault where known. */ message: string;
}

/**
 * Every request the engine takes, with what it carries and what it answers: one map, so a request and
 * its reply cannot disagree. The engine's handlers are typed from it (workers/dispatch.ts) and the
 * client's `send` returns `EngineResult<K>`, so a mismatched reply is a compile error on both sides.
 */
export interface EngineCalls {
  init: { request: { backend: BackendRequest; webglF16Textures?: boolean }; result: BackendInfo };
  train: {
    request: {
      config: TrainConfig;
      dataset: DatasetPayload;
      /** Continue from the kept model at this phase (after an OOM and a fix) instead of starting afresh. */
      resumeFrom?: TrainingPhase;
      /** Continue a saved run (after a reload): rebuild from the settings, restore this state, go on at its point. */
      resume?: { point: ResumePoint; state: TrainerSnapshot };
    };
    result: TrainResult;
  };
  /** Allocate one tensor above the single-buffer limit (a lesson). */
  provoke: { request: { kind: 'buffer-limit' }; result: ProvokeResult };
  /** Dispose everything and re-create the backend (clear_session). */
  release: { request: Record<never, never>; result: ReleaseResult };
  /** Destroy the GPU device or lose the WebGL context on purpose (a lesson). */
  'lose-device': { request: Record<never, never>; result: boolean };
  /** End the run, sweep or search in progress after its current step or point. */
  stop: { request: Record<never, never>; result: boolean };
  /** Measure one training step at every point of a grid, releasing everything between points. */
  sweep: { request: { config: TrainConfig; grid: SweepGrid; numClasses: number }; result: SweepPoint[] };
  /** Binary search for the largest batch in [lo, hi] that fits, at size×size with a preset. */
  'find-largest': {
    request: {
      config: TrainConfig;
      preset: SweepPreset;
      size: number;
      lo: number;
      hi: number;
      numClasses: number;
    };
    result: LargestBatchResult;
  };
  /** The model's layers as the planner sees them (built with zero weights, then freed). */
  describe: {
    request: { model: ModelId; height: number; width: number; numClasses: number; weights?: WeightsChoice };
    result: ModelSpec;
  };
  /** Read dropped weight files or a URL and keep them for the runs of this session. */
  'load-weights': {
    request: { source: { files: File[] } | { url: string } };
    result: WeightsLoaded;
  };
  /** What loading the chosen weights into the configured model would match, without training. */
  'weights-report': { request: { config: TrainConfig; numClasses: number }; result: WeightsReport | null };
  /** Augmented training samples exactly as the pipeline makes them. */
  preview: {
    request: { config: TrainConfig; dataset: DatasetPayload; count: number };
    result: PreviewImage[];
  };
  /** The kept model's files: tfjs Layers (model.json, weights.bin, check.json) or Keras .h5 weights; null without a model. */
  'export-model': { request: { format: 'tfjs-layers' | 'keras-h5' }; result: ModelFile[] | null };
}

export type EngineRequestType = keyof EngineCalls;

/** What a request of type K carries, without its id (the transport numbers requests). */
export type EngineParams<K extends EngineRequestType> = { type: K } & EngineCalls[K]['request'];

/** What a request of type K answers. */
export type EngineResult<K extends EngineRequestType> = EngineCalls[K]['result'];

/** A request as it crosses the thread boundary. */
export type EngineRequest = {
  [K in EngineRequestType]: { id: number } & EngineParams<K>;
}[EngineRequestType];

/** Replies with id 0 are events nobody asked for (device lost). */
export const UNSOLICITED = 0;

/** The result travels as structured-clone data; the transport matches it to its request by id. */
export type EngineReply =
  | { id: number; type: 'progress'; event: EngineEvent }
  | { id: number; type: 'result'; value: EngineResult<EngineRequestType> }
  | { id: number; type: 'error'; error: EngineError };
