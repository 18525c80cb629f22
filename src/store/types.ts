import type { BackendInfo, BackendRequest } from '../core/device/backend';
import type { ModelSpec } from '../core/model/modelSpec';
import type { SweepGrid, SweepPoint, SweepStatus } from '../core/sweep/sweep';
import type {
  MemorySample,
  StepBreakdown,
  StepProfile,
  StepTechnique,
  TimelineMarker,
} from '../core/memory/memory';
import type { OomDetails } from '../core/memory/oom';
import type { DiagnosticsReport } from '../core/run/diagnostics';
import type {
  ImageSource,
  LossScaleInfo,
  PreviewImage,
  ProvokeResult,
  ReleaseResult,
  TrainResult,
  WeightsLoaded,
  WeightsReport,
} from '../core/run/protocol';
import type { TrainConfig, TrainingPhase } from '../core/settings/trainConfig';
import type { ScanResult } from '../core/data/scan';
import type { Guess } from '../core/run/guess';
import type { LabMode } from '../core/settings/url';
import type { LinkTarget, View } from '../core/settings/views';
import type { SavedRunSummary } from '../core/run/resume';
import type { HistoryEntry } from '../core/run/history';
import type { ExperimentId } from '../core/experiments/experiments';
import type { ZipLoaded } from '../core/run/protocol';

/** Settings the user chose; persisted across reloads. */
export interface SettingsSlice {
  config: TrainConfig;
  backendRequest: BackendRequest;
}

/** Work in progress with a known total, for progress bars with an ETA. */
export interface Progress {
  done: number;
  total: number;
  /** performance.now() when the work started. */ startedAt: number;
  /** Milliseconds from the start to the latest `done` update. */ elapsedMs: number;
  /** For a data set: opening the files of a folder listed by name, or checking its images. */
  phase?: 'opening' | 'checking';
}

export interface DatasetSlice {
  dataset: {
    status: 'empty' | 'scanning' | 'ready' | 'error';
    /** 'Built-in sample' or the dropped folder's name. */ name: string;
    scan: ScanResult | null;
    /** Where each found file's bytes are, indexed like ScanResult's fileIndex. */ sources: ImageSource[];
    /** Decode check progress while scanning. */ progress: Progress | null;
    /** Why loading failed as a whole (single files go to scan.skipped). */ error: string | null;
  };
}

export interface EngineSlice {
  engine: {
    status: 'starting' | 'ready' | 'failed';
    backend: BackendInfo | null;
    error: string | null;
    /** The last time the GPU device was lost, if ever this session. */
    lastLoss: { reason: string; message: string; at: number } | null;
  };
}

/** One training step as the charts show it. */
export interface BatchPoint {
  /** Steps since the run started, both phases. */ step: number;
  phase: TrainingPhase;
  epoch: number;
  /** Batch index within the epoch, 0-based. */ batch: number;
  loss: number;
  accuracy: number;
  /** Measured step time, ms. */ stepMs: number;
  /** Milliseconds since the run started when the step ended. */ t: number;
  /** Step peak live bytes, read at every kernel (equals tf.profile's peakBytes). */ peakBytes?: number;
  /** The step under tf.profile, in precise mode. */ profile?: StepProfile;
  /** Bytes by category during the step. */ breakdown: StepBreakdown;
  /** How the step ran (tape mode, micro-batches, checkpoint segments). */ technique: StepTechnique;
  /** Loss scaling after the step; null when off. */ lossScale: LossScaleInfo | null;
}

/** One finished epoch. */
export interface EpochPoint {
  /** Epochs since the run started, both phases, 1-based. */ epoch: number;
  phase: TrainingPhase;
  /** Step count when the epoch ended, to align with batch points. */ step: number;
  loss: number;
  accuracy: number;
  valLoss: number;
  valAccuracy: number;
  /** Wall time of the epoch's validation pass (last batch to epoch end), ms, measured. */ validationMs: number;
}

/** A phase as it started, with what it trains. */
export interface PhaseInfo {
  phase: TrainingPhase;
  t: number;
  trainableParams: number;
  totalParams: number;
  trainableLayers: number;
  epochs: number;
  batchesPerEpoch: number;
}

/** What the memory view compares a run against: the settings and measured step peaks of the run before. */
export interface PreviousRun {
  config: TrainConfig;
  backend: string | null;
  /** Highest measured step peak per phase. */ peaks: { phase: string; peakBytes: number }[];
}

/** What the run was started with, to plan its steps (see selectors' `selectRunProgress`). */
export interface RunPlan {
  /** Training and validation images of the split. */ trainCount: number;
  validationCount: number;
  /** The phase a continued run started at (after a fix), or null for a fresh run. */
  resumeFrom: TrainingPhase | null;
}

/** A fix applied after an OOM, with what the planner claimed, to set beside the measured outcome. */
export interface AppliedFix {
  title: string;
  /** The planner's peak for one step of `phase` with the fix applied. */ predictedBytes: number;
  /** Whether that prediction was under the limit. */ fits: boolean;
  phase: TrainingPhase;
  /** The simulated card's limit, bytes (Infinity without one). */ limit: number;
}

export interface RunSlice {
  run: {
    status: 'idle' | 'running' | 'stopping' | 'completed' | 'stopped' | 'oom' | 'failed';
    /** Configuration of the current or last run (settings may change meanwhile). */ config: TrainConfig | null;
    phases: PhaseInfo[];
    batches: BatchPoint[];
    epochs: EpochPoint[];
    /** Sizes and start the steps are planned from; null before the first run. */ plan: RunPlan | null;
    /** The fix this run was continued with, or null. */ appliedFix: AppliedFix | null;
    result: TrainResult | null;
    /** What ran out, when status is 'oom'. */ oom: OomDetails | null;
    error: string | null;
    /** Backend the run trained on. */ backend: string | null;
    /** The run before this one, kept so a technique can be read as a before/after pair. */
    previous: PreviousRun | null;
    /** Classifier diagnostics on the validation split, one per phase that ended (not stopped). */
    diagnostics: DiagnosticsReport[];
  };
}

export interface MemorySlice {
  memory: {
    samples: MemorySample[];
    markers: TimelineMarker[];
    /** The last "release everything" and what it freed. */
    release: {
      status: 'idle' | 'running' | 'done' | 'error';
      result: ReleaseResult | null;
      error: string | null;
    };
  };
}

export interface PreviewSlice {
  preview: {
    status: 'idle' | 'loading' | 'ready' | 'error';
    images: PreviewImage[];
    error: string | null;
  };
}

/** Sweeps and the largest-batch search. */
export interface SweepSlice {
  sweep: SweepStatus & {
    grid: SweepGrid;
    /** Points of the last sweep or search, in run order. */ points: SweepPoint[];
    /** The settings the points were measured with, for the labels. */ config: TrainConfig | null;
  };
}

export interface LessonSlice {
  /** The "provoke a real failure" lesson. */
  provoke: {
    status: 'idle' | 'running' | 'done' | 'error';
    result: ProvokeResult | null;
    error: string | null;
  };
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  /** Date.now() when logged. */ at: number;
}

export interface LogSlice {
  log: LogEntry[];
  /**
   * The last command the lab refused, and why (e.g. loading data while a run holds the engine); shown
   * until the next command.
   */
  notice: { message: string; at: number } | null;
}

/** The starting weights: what was loaded this session and how it matches the configured model. */
export interface WeightsSlice {
  weights: {
    status: 'idle' | 'loading' | 'ready' | 'error';
    /** The file or URL loaded this session (not persisted: files cannot be re-read after a reload). */
    loaded: WeightsLoaded | null;
    /** How the chosen weights match the configured model; null for random initialisation. */
    report: WeightsReport | null;
    /** What the report was made for, so a stale one is never shown. */ key: string;
    /** Why the last file or URL could not be read; cleared when another load starts. */
    error: string | null;
    /** Why no report could be made for the chosen weights (e.g. a file choice with no file loaded). */
    reportError: string | null;
  };
}

/** The model as the planner sees it, for the current model, resolution and classes. */
export interface PlannerSlice {
  planner: {
    status: 'idle' | 'loading' | 'ready' | 'error';
    spec: ModelSpec | null;
    /** What the spec was built for, so a stale one is never used. */ key: string;
    error: string | null;
    /**
     * The same model described at other input sizes, for fixes that change the size (the planner needs
     * the real shapes there); `key` is the model and classes they were built for.
     */
    alternates: { key: string; specs: ModelSpec[] };
  };
}

/** The view shown; the address's hash mirrors it (browser/viewRoute), so back, forward and reload keep it. */
export interface NavSlice {
  nav: { view: View };
}

/** Workshop mode: predict-then-run, and what the link the page was opened with set. */
export interface WorkshopSlice {
  workshop: {
    /** Predict hides the planner's numbers until a guess is committed. */ mode: LabMode;
    /** The committed guess, or null. */ guess: Guess | null;
    /** The view or panel a link opened, or null. */ view: LinkTarget | null;
    /** What the opening link applied and ignored (each with why); null without a link. */
    link: { applied: string[]; ignored: string[]; sample: boolean } | null;
  };
}

/** A run this browser saved (IndexedDB) that a reload or crash cut off, offered to resume. */
export interface SavedRunSlice {
  savedRun: {
    /**
     * 'offered': found and shown; 'armed': the next Train continues it; 'discarding': the user discarded
     * it and the saved copy is being deleted; 'none': nothing saved.
     */
    status: 'none' | 'offered' | 'armed' | 'discarding';
    summary: SavedRunSummary | null;
  };
}

/** The run history of this browser (kept in IndexedDB by the client), read once at start-up. */
export interface HistorySlice {
  history: {
    /** 'loading' until the kept entries are read; entries that end meanwhile are kept all the same. */
    status: 'loading' | 'ready';
    /** Oldest first, each with its IndexedDB id. */ entries: HistoryEntry[];
    /** Why the history could not be read, or a run could not be kept. */ error: string | null;
  };
}

export type Side = 'before' | 'after';

/** One side of an experiment: the run's history entry, and whether it was reused rather than trained now. */
export interface SideResult {
  entry: HistoryEntry;
  reused: boolean;
}

/** The remedy cards' experiments: what each card's last one gave, and the one in progress. */
export interface ExperimentsSlice {
  experiments: {
    /** Each card's last experiment, side by side (trained then, or reused from the history). */
    given: Partial<Record<ExperimentId, Partial<Record<Side, SideResult>>>>;
    /** The card and side running now; null when no experiment runs. */
    active: { id: ExperimentId; side: Side } | null;
    /** Why a card's last experiment did not run through. */ errors: Partial<Record<ExperimentId, string>>;
    /**
     * The settings and model when the running experiment started, so the cards stay as they were while
     * the settings change under it; null when idle.
     */
    started: { config: TrainConfig; spec: ModelSpec | null } | null;
  };
}

/** The lab model zip loaded last (dropped, chosen or saved in this browser), or why it was refused. */
export interface LabZipSlice {
  labZip: {
    loaded: ZipLoaded | null;
    error: string | null;
    /** A dropped zip's bytes, so it can be kept in this browser; null for a saved one. */
    dropped: { bytes: Uint8Array; label: string } | null;
  };
}

export type LabState = SettingsSlice &
  NavSlice &
  HistorySlice &
  ExperimentsSlice &
  LabZipSlice &
  SavedRunSlice &
  WorkshopSlice &
  PlannerSlice &
  SweepSlice &
  WeightsSlice &
  DatasetSlice &
  EngineSlice &
  RunSlice &
  MemorySlice &
  PreviewSlice &
  LessonSlice &
  LogSlice;
