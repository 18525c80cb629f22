// The engine client: turns the views' commands into engine requests and the engine's replies into named
// store actions. It decides nothing about state itself: reducers (store/) do, and every derived value
// (busy, the trainable set, the planned steps) comes from the store's selectors.
import type { BackendRequest } from '../core/device/backend';
import type { DatasetPayload, EngineEvent, TrainResult } from '../core/run/protocol';
import { oomMessage } from '../core/memory/oom';
import type { Remedy } from '../core/oom/remedies';
import { isTrainable } from '../core/data/scan';
import { graphSweepGrid } from '../core/sweep/graphChoice';
import { gridPoints, validateGrid, type SweepPreset } from '../core/sweep/sweep';
import { trainableLabel } from '../core/settings/trainable';
import type { TrainingPhase } from '../core/settings/trainConfig';
import { modelDownload } from '../browser/exports';
import { filesFromDirectory, filesFromDrop, filesFromInput, pickDirectory } from '../browser/folder';
import { actions, appendLog, refuse } from '../store/actions';
import type { FixClaim, LabCommands, SavedFile } from '../store/commands';
import { selectBusy, selectConfigProblems, selectNumClasses, selectTraining } from '../store/selectors';
import { labStore, updateConfig } from '../store/store';
import { DatasetLoader, fromPicked, sampleFiles, type ListedFile } from './datasetLoader';
import { EventBatcher } from './engineEvents';
import { startEngine } from './engineStart';
import { errorMessage } from '../core/format';
import { ModelSync } from './modelSync';
import { withRunSaving } from './runSaver';
import { datasetPayload, previewPayload } from './trainPayload';
import type { Transport } from './transport';
import { formatBytes } from '../core/format';

/** The largest-batch search tries batches up to this. */
const LARGEST_BATCH_CEILING = 256;

/** Resolves once the engine is no longer starting (ready or failed). */
function engineSettled(): Promise<void> {
  const settled = () => labStore.getState().engine.status !== 'starting';
  return new Promise((resolve) => {
    if (settled()) return resolve();
    const off = labStore.subscribe(() => {
      if (!settled()) return;
      off();
      resolve();
    });
  });
}

export class LabClient implements LabCommands {
  private transport: Transport | null = null;
  private previewSeed = 0;
  private unsubscribe: (() => void) | null = null;
  private readonly datasets = new DatasetLoader();
  private readonly sync = new ModelSync(() => this.transport);
  private readonly events = new EventBatcher((list) => actions.engineEvents(list));

  /** Starts the engine in a worker; falls back to the page's thread when the worker gets no GPU. */
  async start(): Promise<void> {
    const s = labStore.getState();
    actions.engineStarting();
    this.transport?.close();
    this.transport = null;
    try {
      const started = await startEngine(s.backendRequest, s.config.precision.webglF16Textures, (e) =>
        this.onUnsolicited(e),
      );
      this.transport = withRunSaving(started.transport);
      const info = started.info;
      if (started.fallback) appendLog('warn', started.fallback);
      actions.engineReady(info);
      appendLog(
        'info',
        `Engine ready on ${info.name}${info.inWorker ? ' in a Web Worker' : ' on the page thread'}.`,
      );
      for (const reason of info.skipped) appendLog('warn', `Not used: ${reason}`);
      this.unsubscribe ??= labStore.subscribe(() => this.sync.refresh());
      this.sync.refresh();
    } catch (err) {
      actions.engineFailed(errorMessage(err));
      appendLog('error', errorMessage(err));
    }
  }

  /**
   * A lost GPU device cannot be used again: every later op throws or hangs. Start a fresh engine
   * (new worker, new device); settings and the loaded data stay, the model is gone.
   */
  private onUnsolicited(e: EngineEvent): void {
    if (e.kind !== 'device-lost') {
      this.events.push(e);
      return;
    }
    const what =
      e.reason === 'webgl-context-lost'
        ? `WebGL context lost (${e.message})`
        : `GPU device lost (${e.reason}${e.message ? `: ${e.message}` : ''})`;
    appendLog('error', `${what}. Re-creating the backend; the model is gone, settings and data stay.`);
    actions.deviceLost({ reason: e.reason, message: e.message, what, at: Date.now() });
    void this.start();
  }

  /**
   * The engine for a command that needs it to itself, or null with the reason shown: nothing replaces
   * the data, the weights or the backend under a running job, and no second job starts beside one.
   */
  private free(what: string): Transport | null {
    const s = labStore.getState();
    actions.noticeCleared();
    if (selectBusy(s)) {
      const job = selectTraining(s) ? 'a training run' : 'a sweep';
      refuse(
        `${what} is not possible while ${job} is going on: press Stop, wait for it to end, then try again.`,
      );
      return null;
    }
    if (!this.transport || s.engine.status !== 'ready') {
      refuse(`${what} has to wait until the engine is ready.`);
      return null;
    }
    return this.transport;
  }

  async loseDevice(): Promise<void> {
    const name = labStore.getState().engine.backend?.name;
    if ((name !== 'webgpu' && name !== 'webgl') || !this.transport) return;
    await this.transport.send({ type: 'lose-device' });
  }

  async setBackend(request: BackendRequest): Promise<void> {
    if (!this.free('Changing the backend')) return;
    actions.backendRequested(request);
    await this.start();
  }

  async useSample(): Promise<void> {
    await this.loadDataset('Loading the built-in sample', 'Built-in sample', sampleFiles);
  }

  async dropFolder(data: DataTransfer): Promise<void> {
    // Entries must be taken from the DataTransfer before the drop handler returns.
    const picked = filesFromDrop(data);
    await this.loadDataset('Loading a folder', '', async () => fromPicked(await picked));
  }

  async chooseFolder(files: FileList): Promise<void> {
    const picked = filesFromInput(files);
    await this.loadDataset('Loading a folder', '', async () => fromPicked(picked));
  }

  async pickFolder(): Promise<void> {
    if (!this.free('Loading a folder')) return;
    try {
      const root = await pickDirectory();
      if (root)
        await this.loadDataset('Loading a folder', '', async () => fromPicked(filesFromDirectory(root)));
    } catch (err) {
      appendLog('error', errorMessage(err));
    }
  }

  cancelDataset(): void {
    this.datasets.cancel();
  }

  private async loadDataset(what: string, name: string, list: () => Promise<ListedFile[]>): Promise<void> {
    // A click in the page's first second, while the engine starts, waits for it rather than being lost.
    await engineSettled();
    if (!this.free(what)) return;
    try {
      const loaded = await this.datasets.load(name, list);
      if (!loaded) return;
      appendLog(
        'info',
        `Loaded "${loaded.name}": ${loaded.scan.items.length} images in ${loaded.scan.classes.length} classes, ${loaded.scan.skipped.length} files skipped.`,
      );
      if (isTrainable(loaded.scan)) await this.refreshPreview();
    } catch (err) {
      appendLog('error', errorMessage(err));
    }
  }

  /** The scanned data set split for training, or null when there is none to train on. */
  private payload(): DatasetPayload | null {
    return datasetPayload(labStore.getState());
  }

  async refreshPreview(): Promise<void> {
    const payload = this.payload();
    const transport = this.transport;
    if (!payload || !transport || selectTraining(labStore.getState())) return;
    actions.previewLoading();
    const config = { ...labStore.getState().config, seed: ++this.previewSeed };
    try {
      const images = await transport.send({
        type: 'preview',
        config,
        dataset: previewPayload(payload, this.previewSeed, 8),
        count: 8,
      });
      actions.previewReady(images);
    } catch (err) {
      actions.previewFailed(errorMessage(err));
    }
  }

  async runSweep(): Promise<void> {
    const transport = this.free('Starting a sweep');
    const s = labStore.getState();
    if (!transport) return;
    const problems = [...validateGrid(s.sweep.grid).map((p) => p.message), ...selectConfigProblems(s)];
    if (problems.length > 0) {
      actions.sweepFailed(problems.join(' '));
      return;
    }
    // A graph model's sweep runs the grid its run can train (core/sweep/graphChoice), as the engine does.
    const graph = s.config.weights === 'graph';
    const total = gridPoints(graph ? graphSweepGrid(s.sweep.grid, s.config.height) : s.sweep.grid).length;
    actions.sweepStarted(s.config, total);
    appendLog('info', `Sweep: ${total} points; everything is released between points (the kept model too).`);
    try {
      await this.events.send(transport, {
        type: 'sweep',
        config: s.config,
        grid: s.sweep.grid,
        numClasses: selectNumClasses(s),
      });
      actions.sweepDone();
    } catch (err) {
      actions.sweepFailed(errorMessage(err));
    }
  }

  async findLargestBatch(): Promise<void> {
    const transport = this.free('Searching for the largest batch');
    const s = labStore.getState();
    if (!transport) return;
    const problems = selectConfigProblems(s);
    if (problems.length > 0) {
      actions.sweepFailed(problems.join(' '));
      return;
    }
    const config = s.config;
    const preset: SweepPreset =
      config.fineTuneEpochs > 0
        ? {
            id: 'settings',
            label: `fine-tune, ${trainableLabel(config.fineTune)}`,
            phase: 'fine-tune',
            fineTune: config.fineTune,
          }
        : {
            id: 'settings',
            label: 'head only (backbone frozen)',
            phase: 'frozen',
            fineTune: { kind: 'head' },
          };
    const size = Math.min(config.height, config.width);
    actions.largestStarted(config);
    try {
      const result = await this.events.send(transport, {
        type: 'find-largest',
        config,
        preset,
        size,
        // Accumulation needs an image per micro-batch, as the settings require.
        lo: Math.max(1, config.techniques.accumulationSteps),
        hi: LARGEST_BATCH_CEILING,
        numClasses: selectNumClasses(s),
      });
      actions.largestDone(result);
      appendLog(
        'info',
        result.largest === null
          ? `Largest batch: not even 1 fits at ${size}×${size} (${preset.label}).`
          : `Largest batch that fits at ${size}×${size} (${preset.label}): ${result.largest}, measured in ${result.points.length} steps${result.predicted !== null ? ` from the planner's ${result.predicted}` : ''}.`,
      );
    } catch (err) {
      actions.sweepFailed(errorMessage(err));
    }
  }

  async stopSweep(): Promise<void> {
    if (labStore.getState().sweep.status !== 'running' || !this.transport) return;
    await this.transport.send({ type: 'stop' });
  }

  async loadWeights(files: File[]): Promise<void> {
    await this.readWeights({ files });
  }

  async loadWeightsFromUrl(url: string): Promise<void> {
    await this.readWeights({ url: url.trim() });
  }

  private async readWeights(source: { files: File[] } | { url: string }): Promise<void> {
    const transport = this.free('Loading weights');
    if (!transport) return;
    actions.weightsLoading();
    try {
      const loaded = await transport.send({ type: 'load-weights', source });
      actions.weightsLoaded(loaded);
      appendLog('info', `Weights read: ${loaded.label} (${loaded.format}).`);
      if (loaded.kind === 'graph-model')
        appendLog('warn', loaded.reason ?? 'A GraphModel cannot be fine-tuned.');
    } catch (err) {
      actions.weightsFailed(errorMessage(err));
      appendLog('error', errorMessage(err));
    }
  }

  async train(): Promise<void> {
    await this.run(null, null);
  }

  async applyRemedy(remedy: Remedy, claim?: FixClaim): Promise<void> {
    const { run } = labStore.getState();
    if (run.status !== 'oom') return;
    const phase = run.result?.lastPhase ?? null;
    updateConfig(remedy.patch);
    appendLog('info', `Fix applied: ${remedy.title}.`);
    await this.run(phase, claim && phase ? { title: remedy.title, ...claim, phase } : null);
  }

  async provokeBufferLimit(): Promise<void> {
    const transport = this.free('Provoking a GPU failure');
    if (!transport || labStore.getState().provoke.status === 'running') return;
    actions.provokeStarted();
    try {
      const result = await transport.send({ type: 'provoke', kind: 'buffer-limit' });
      actions.provokeDone(result);
      if (result.caught) appendLog('warn', `Provoked on purpose and caught: ${oomMessage(result.caught)}`);
    } catch (err) {
      actions.provokeFailed(errorMessage(err));
    }
  }

  async releaseAll(): Promise<void> {
    const transport = this.free('Releasing everything');
    if (!transport || labStore.getState().memory.release.status === 'running') return;
    actions.releaseStarted();
    try {
      const result = await transport.send({ type: 'release' });
      actions.releaseDone(result);
      const { before, after } = result;
      appendLog(
        'info',
        `Released everything and re-created ${result.backend.name}: live ${formatBytes(before.liveBytes)} → ${formatBytes(after.liveBytes)}` +
          (before.allocatedBytes !== undefined
            ? `, allocated incl. pool ${formatBytes(before.allocatedBytes)} → ${formatBytes(after.allocatedBytes ?? 0)}.`
            : '.'),
      );
    } catch (err) {
      actions.releaseFailed(errorMessage(err));
    }
  }

  /** Starts a run; with `resumeFrom`, continues the kept model from that phase. */
  private async run(
    resumeFrom: TrainingPhase | null,
    appliedFix: Parameters<typeof actions.runStarted>[0]['appliedFix'],
  ): Promise<void> {
    const transport = this.free('Starting a run');
    if (!transport) return;
    const s = labStore.getState();
    const problems = [...selectConfigProblems(s)];
    const payload = this.payload();
    if (!payload) problems.unshift('Load a data set with at least two classes first.');
    if (problems.length > 0 || !payload) {
      actions.runRefused(problems);
      return;
    }
    const config = s.config;
    const plan = { trainCount: payload.train.length, validationCount: payload.validation.length, resumeFrom };
    actions.runStarted({ config, plan, appliedFix });
    try {
      const result = await this.events.send(transport, {
        type: 'train',
        config,
        dataset: payload,
        ...(resumeFrom ? { resumeFrom } : {}),
      });
      actions.runEnded(result);
      appendLog('info', describeResult(result));
    } catch (err) {
      actions.runFailed(errorMessage(err));
      appendLog('error', `Training failed: ${errorMessage(err)}`);
    }
  }

  async exportModel(format: 'tfjs-layers' | 'keras-h5'): Promise<SavedFile | null> {
    const transport = this.free('Exporting the model');
    if (!transport) return null;
    const files = await transport.send({ type: 'export-model', format });
    const c = labStore.getState().run.config;
    if (!files || !c) {
      refuse('Train a model first: there is none to export.');
      return null;
    }
    return modelDownload(format, files, `${c.model}-${c.height}x${c.width}`);
  }

  async stop(): Promise<void> {
    if (labStore.getState().run.status !== 'running' || !this.transport) return;
    actions.runStopping();
    await this.transport.send({ type: 'stop' });
  }
}

function describeResult(r: TrainResult): string {
  const val = Number.isFinite(r.valLoss)
    ? ` Last val_loss ${r.valLoss.toFixed(4)}, val_accuracy ${(r.valAccuracy * 100).toFixed(1)}%.`
    : '';
  const how = {
    completed: 'Training finished.',
    'early-stopped': 'Training ended by EarlyStopping.',
    stopped: 'Training stopped by the user; the model keeps its last weights.',
    oom: 'Training ran out of memory; the model keeps its last good weights. Apply a fix to continue.',
  }[r.outcome];
  return how + val;
}
