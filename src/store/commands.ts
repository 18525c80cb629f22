import type { BackendRequest } from '../core/device/backend';
import type { SavedModelMeta, ZipLoaded } from '../core/run/protocol';
import type { Remedy } from '../core/oom/remedies';

/** A file the page saves for the user (an exported model). */
export interface SavedFile {
  name: string;
  bytes: Uint8Array;
  /** MIME type. */ type: string;
}

/** What the planner predicted for a fix: its peak, whether it fits, and the card it was judged against. */
export interface FixClaim {
  predictedBytes: number;
  fits: boolean;
  /** The card after the fix, bytes (Infinity without one). */ limit: number;
}

/** What the views can ask for. The engine client implements it; the views never see the engine. */
export interface LabCommands {
  useSample(): Promise<void>;
  dropFolder(data: DataTransfer): Promise<void>;
  chooseFolder(files: FileList): Promise<void>;
  /** Asks for a folder with the browser's directory picker (Chromium's showDirectoryPicker), then loads it. */
  pickFolder(): Promise<void>;
  /** Cancels the data set being listed or checked. */
  cancelDataset(): void;
  train(): Promise<void>;
  stop(): Promise<void>;
  refreshPreview(): Promise<void>;
  setBackend(request: BackendRequest): Promise<void>;
  /**
   * Applies a fix after an OOM and continues training from the kept model; the planner's claim for it
   * is kept beside the measured outcome.
   */
  applyRemedy(remedy: Remedy, claim?: FixClaim): Promise<void>;
  /** Frees the model and the backend's pool by re-creating the backend (clear_session). */
  releaseAll(): Promise<void>;
  /** Destroys the WebGPU device on purpose; the lab must notice and re-create the backend. */
  loseDevice(): Promise<void>;
  /** Allocates one tensor above the backend's single-buffer limit and reports what was caught. */
  provokeBufferLimit(): Promise<void>;
  /** Measures one training step at every point of the sweep grid. */
  runSweep(): Promise<void>;
  /** Binary search for the largest batch that fits with the current settings. */
  findLargestBatch(): Promise<void>;
  /** Ends a sweep or search after the point in progress. */
  stopSweep(): Promise<void>;
  /** Reads dropped weight files (one Keras .h5, or a tfjs model.json with its shards) for this session. */
  loadWeights(files: File[]): Promise<void>;
  /** Fetches weights from a URL (a model.json beside its shards, or an .h5 file). */
  loadWeightsFromUrl(url: string): Promise<void>;
  /** The last run's model as one file to save (tfjs Layers zip or Keras .h5), or null when refused. */
  exportModel(format: 'tfjs-layers' | 'keras-h5'): Promise<SavedFile | null>;
}

/**
 * Lab models kept as zips: the download with the lab's notes, saved in this browser (IndexedDB), and read
 * back (a dropped zip or a saved one) as the starting weights with the settings they need.
 */
export interface ModelLibrary {
  /** The last run's model as the tfjs Layers zip with lab.json (name, classes, accuracy), or null. */
  downloadZip(name: string): Promise<SavedFile | null>;
  /** Saves the last run's model in this browser; throws naming a full quota. Null without a model. */
  saveTrained(name: string): Promise<SavedModelMeta | null>;
  /** Keeps a zip that was read (dropped) in this browser. */
  keepZip(bytes: Uint8Array, label: string): Promise<SavedModelMeta>;
  /** Every saved model, newest first. */
  list(): Promise<SavedModelMeta[]>;
  remove(id: number): Promise<void>;
  /** Reads a zip, applies its architecture and input size, loads its weights; throws naming the zip. */
  loadZip(bytes: Uint8Array, label: string): Promise<ZipLoaded>;
  /** Loads a saved model the same way. */
  loadSaved(id: number): Promise<ZipLoaded>;
  /** Calls `listener` after any save or delete; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

let library: ModelLibrary | null = null;

/** Called once at start-up by main.tsx. */
export function provideModelLibrary(l: ModelLibrary): void {
  library = l;
}

export function modelLibrary(): ModelLibrary {
  if (!library) throw new Error('The model library used before start-up provided it.');
  return library;
}

/** The run history's writes; the entries themselves are the store's history slice (kept by the client). */
export interface RunHistory {
  remove(id: number): Promise<void>;
}

let history: RunHistory | null = null;

/** Called once at start-up by main.tsx. */
export function provideRunHistory(h: RunHistory): void {
  history = h;
}

export function runHistory(): RunHistory {
  if (!history) throw new Error('The run history used before start-up provided it.');
  return history;
}

let current: LabCommands | null = null;

/** Called once at start-up by main.tsx. */
export function provideCommands(commands: LabCommands): void {
  current = commands;
}

export function commands(): LabCommands {
  if (!current) throw new Error('Lab commands used before start-up provided them.');
  return current;
}
