// The engine client: starts the engine (worker first), turns user commands into requests and the
// engine's replies into store updates. Views reach it only through the LabCommands interface.
import type { BackendInfo, BackendRequest } from '../core/backend';
import type {
  DatasetPayload,
  EngineEvent,
  ImageSource,
  PreviewImage,
  ProvokeResult,
  ReleaseResult,
  TrainResult,
  LargestBatchResult,
  WeightsLoaded,
  WeightsReport,
} from '../core/protocol';
import type { TrainingPhase } from '../core/trainConfig';
import { scanFiles, withoutUndecodable, isTrainable, type FoundFile } from '../core/scan';
import { validateTrainConfig } from '../core/settings';
import { stepPeaks } from '../core/phasePeaks';
import { gridPoints, validateGrid, type SweepPreset } from '../core/sweep';
import type { ModelSpec } from '../core/modelSpec';
import { formatBytes } from '../core/memory';
import { oomMessage } from '../core/oom';
import type { Remedy } from '../core/remedies';
import { createRng } from '../core/rng';
import { stratifiedSplit } from '../core/split';
import { trainableLabel } from '../core/trainable';
import { findUndecodable } from '../browser/decodeCheck';
import { readBlob } from '../browser/decode';
import { filesFromDrop, filesFromInput, type PickedFile } from '../browser/folder';
import type { LabCommands } from '../store/commands';
import type { LabState } from '../store/types';
import { appendLog, INITIAL_RUN, labStore, updateConfig } from '../store/store';
import { InThreadTransport, WorkerTransport, type Transport } from './transport';

/** Classes the planner assumes before a data set is loaded (the built-in sample has three). */
const DEFAULT_PLANNER_CLASSES = 3;

/** The largest-batch search tries batches up to this. */
const LARGEST_BATCH_CEILING = 256;

/** Longest memory timeline kept (points); older points are dropped first. */
const MAX_SAMPLES = 50_000;

export class LabClient implements LabCommands {
  private transport: Transport | null = null;
  private previewSeed = 0;
  private unsubscribePlanner: (() => void) | null = null;
  /** The planner spec being built now, so one change asks the engine once. */
  private plannerInFlight = '';
  /** The weights report being made now. */
  private reportInFlight = '';

  /** Starts the engine in a worker; falls back to the page's thread when the worker gets no GPU. */
  async start(): Promise<void> {
    const request = labStore.getState().backendRequest;
    labStore.setState((s) => ({ engine: { ...s.engine, status: 'starting', backend: null, error: null } }));
    try {
      const info = await this.startEngine(request);
      labStore.setState((s) => ({ engine: { ...s.engine, status: 'ready', backend: info, error: null } }));
      appendLog(
        'info',
        `Engine ready on ${info.name}${info.inWorker ? ' in a Web Worker' : ' on the page thread'}.`,
      );
      for (const reason of info.skipped) appendLog('warn', `Not used: ${reason}`);
      this.unsubscribePlanner ??= labStore.subscribe(() => {
        void this.refreshPlanner();
        void this.refreshWeightsReport();
      });
      void this.refreshPlanner();
      void this.refreshWeightsReport();
    } catch (err) {
      labStore.setState((s) => ({
        engine: { ...s.engine, status: 'failed', backend: null, error: messageOf(err) },
      }));
      appendLog('error', messageOf(err));
    }
  }

  private async startEngine(request: BackendRequest): Promise<BackendInfo> {
    const f16 = labStore.getState().config.precision.webglF16Textures;
    this.transport?.close();
    let workerInfo: BackendInfo | null = null;
    try {
      const worker = new Worker(new URL('./training.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vram-lab-training',
      });
      const transport = new WorkerTransport(worker, (e) => this.onUnsolicited(e));
      workerInfo = (await transport.send({
        type: 'init',
        backend: request,
        webglF16Textures: f16,
      })) as BackendInfo;
      if (workerInfo.name === 'webgpu' || !(await pageHasGpu(request))) {
        this.transport = transport;
        return workerInfo;
      }
      transport.close();
    } catch (err) {
      appendLog(
        'warn',
        `The training worker could not start (${messageOf(err)}); training on the page thread.`,
      );
    }
    const inThread = new InThreadTransport((e) => this.onUnsolicited(e));
    const info = (await inThread.send({
      type: 'init',
      backend: request,
      webglF16Textures: f16,
    })) as BackendInfo;
    this.transport = inThread;
    if (workerInfo)
      info.skipped.unshift(`Web Worker: only ${workerInfo.name} there, WebGPU works on the page thread`);
    return info;
  }

  /**
   * A lost GPU device cannot be used again: every later op throws or hangs. Start a fresh engine
   * (new worker, new device); settings and the loaded data stay, the model is gone.
   */
  private onUnsolicited(e: EngineEvent): void {
    if (e.kind !== 'device-lost') {
      onEngineEvent(e);
      return;
    }
    const what =
      e.reason === 'webgl-context-lost'
        ? `WebGL context lost (${e.message})`
        : `GPU device lost (${e.reason}${e.message ? `: ${e.message}` : ''})`;
    appendLog('error', `${what}. Re-creating the backend; the model is gone, settings and data stay.`);
    labStore.setState((s) => ({
      engine: { ...s.engine, lastLoss: { reason: e.reason, message: e.message, at: Date.now() } },
      run:
        s.run.status === 'running' || s.run.status === 'stopping'
          ? { ...s.run, status: 'failed', error: `${what} during training. Press Train to start again.` }
          : s.run,
    }));
    void this.start();
  }

  async loseDevice(): Promise<void> {
    const name = labStore.getState().engine.backend?.name;
    if ((name !== 'webgpu' && name !== 'webgl') || !this.transport) return;
    await this.transport.send({ type: 'lose-device' });
  }

  async setBackend(request: BackendRequest): Promise<void> {
    labStore.setState({ backendRequest: request });
    await this.start();
  }

  async useSample(): Promise<void> {
    await this.loadDataset('Built-in sample', async () => {
      const base = new URL('sample/', document.baseURI);
      const response = await fetch(new URL('manifest.json', base));
      if (!response.ok)
        throw new Error(`The built-in sample is missing (HTTP ${response.status} for sample/manifest.json).`);
      const manifest = (await response.json()) as { files: FoundFile[] };
      return manifest.files.map((f) => ({
        found: f,
        source: { kind: 'url', url: new URL(f.path, base).href },
      }));
    });
  }

  async dropFolder(data: DataTransfer): Promise<void> {
    // Entries must be taken from the DataTransfer before the drop handler returns.
    const picked = filesFromDrop(data);
    await this.loadDataset('', async () => fromPicked(await picked));
  }

  async chooseFolder(files: FileList): Promise<void> {
    const picked = filesFromInput(files);
    await this.loadDataset('', async () => fromPicked(picked));
  }

  private async loadDataset(
    name: string,
    list: () => Promise<{ found: FoundFile; source: ImageSource }[]>,
  ): Promise<void> {
    labStore.setState({
      dataset: { status: 'scanning', name, scan: null, sources: [], progress: null, error: null },
      preview: { status: 'idle', images: [], error: null },
    });
    try {
      const entries = await list();
      const found = entries.map((e) => e.found);
      const sources = entries.map((e) => e.source);
      const folderName = name || found[0]?.path.split('/')[0] || 'dropped files';
      const first = scanFiles(found);
      const startedAt = performance.now();
      const total = first.items.length;
      labStore.setState((s) => ({
        dataset: { ...s.dataset, name: folderName, progress: { done: 0, total, startedAt, elapsedMs: 0 } },
      }));
      const failures = await findUndecodable(
        first.items.map((c) => ({
          fileIndex: c.fileIndex,
          path: found[c.fileIndex]!.path,
          read: () => readBlob(sources[c.fileIndex]!, found[c.fileIndex]!.path),
        })),
        (done) =>
          labStore.setState((s) => ({
            dataset: {
              ...s.dataset,
              progress: { done, total, startedAt, elapsedMs: performance.now() - startedAt },
            },
          })),
      );
      const scan = withoutUndecodable(first, failures, found);
      labStore.setState({
        dataset: { status: 'ready', name: folderName, scan, sources, progress: null, error: null },
      });
      appendLog(
        'info',
        `Loaded "${folderName}": ${scan.items.length} images in ${scan.classes.length} classes, ${scan.skipped.length} files skipped.`,
      );
      if (isTrainable(scan)) await this.refreshPreview();
    } catch (err) {
      labStore.setState((s) => ({
        dataset: { ...s.dataset, status: 'error', progress: null, error: messageOf(err) },
      }));
      appendLog('error', messageOf(err));
    }
  }

  /** The scanned data set split for training, or null with the reason logged. */
  private payload(): DatasetPayload | null {
    const { dataset, config } = labStore.getState();
    if (!dataset.scan || !isTrainable(dataset.scan)) return null;
    const split = stratifiedSplit(dataset.scan.items, config.validationFraction, config.seed);
    const toSource = (i: { path: string; label: number; fileIndex: number }) => ({
      path: i.path,
      label: i.label,
      source: dataset.sources[i.fileIndex]!,
    });
    return {
      classes: dataset.scan.classes.map((c) => c.name),
      train: split.train.map(toSource),
      validation: split.validation.map(toSource),
    };
  }

  async refreshPreview(): Promise<void> {
    const payload = this.payload();
    const transport = this.transport;
    if (!payload || !transport || labStore.getState().run.status === 'running') return;
    labStore.setState((s) => ({ preview: { ...s.preview, status: 'loading', error: null } }));
    const config = { ...labStore.getState().config, seed: ++this.previewSeed };
    const shuffled = createRng(this.previewSeed).shuffle(payload.train);
    try {
      const images = (await transport.send({
        type: 'preview',
        config,
        dataset: { ...payload, train: shuffled },
        count: 8,
      })) as PreviewImage[];
      labStore.setState({ preview: { status: 'ready', images, error: null } });
    } catch (err) {
      labStore.setState({ preview: { status: 'error', images: [], error: messageOf(err) } });
    }
  }

  /**
   * Keeps the planner's model description in step with the settings: rebuilt (in the engine, with random
   * weights, freed at once) when the model, resolution or number of classes changes, never mid-run.
   */
  private async refreshPlanner(): Promise<void> {
    const { config, dataset, engine, run, planner, sweep } = labStore.getState();
    const transport = this.transport;
    const numClasses = dataset.scan?.classes.length ?? DEFAULT_PLANNER_CLASSES;
    const key = `${config.model}|${config.height}|${config.width}|${numClasses}`;
    const busy = run.status === 'running' || run.status === 'stopping' || sweep.status === 'running';
    if (
      !transport ||
      engine.status !== 'ready' ||
      busy ||
      key === planner.key ||
      key === this.plannerInFlight
    )
      return;
    if (validateTrainConfig(config).length > 0) return;
    this.plannerInFlight = key;
    labStore.setState((s) => ({ planner: { ...s.planner, status: 'loading', error: null } }));
    try {
      const spec = (await transport.send({
        type: 'describe',
        model: config.model,
        height: config.height,
        width: config.width,
        numClasses,
      })) as ModelSpec;
      labStore.setState({ planner: { status: 'ready', spec, key, error: null } });
    } catch (err) {
      labStore.setState({ planner: { status: 'error', spec: null, key, error: messageOf(err) } });
    } finally {
      this.plannerInFlight = '';
    }
  }

  /** Whether the engine is free for a sweep (no run, no other sweep). */
  private sweepReady(): Transport | null {
    const { engine, run, sweep } = labStore.getState();
    const busy = run.status === 'running' || run.status === 'stopping' || sweep.status === 'running';
    return this.transport && engine.status === 'ready' && !busy ? this.transport : null;
  }

  async runSweep(): Promise<void> {
    const transport = this.sweepReady();
    const { config, sweep, dataset } = labStore.getState();
    if (!transport) return;
    const problems = [...validateGrid(sweep.grid).map((p) => p.message), ...validateTrainConfig(config)];
    if (problems.length > 0) {
      labStore.setState((s) => ({ sweep: { ...s.sweep, status: 'error', error: problems.join(' ') } }));
      return;
    }
    const total = gridPoints(sweep.grid).length;
    labStore.setState((s) => ({
      sweep: { ...s.sweep, points: [], status: 'running', error: null, progress: { done: 0, total }, config },
    }));
    appendLog('info', `Sweep: ${total} points; everything is released between points (the kept model too).`);
    try {
      await transport.send(
        {
          type: 'sweep',
          config,
          grid: sweep.grid,
          numClasses: dataset.scan?.classes.length ?? DEFAULT_PLANNER_CLASSES,
        },
        onSweepEvent,
      );
      labStore.setState((s) => ({ sweep: { ...s.sweep, status: 'done', progress: null } }));
    } catch (err) {
      labStore.setState((s) => ({
        sweep: { ...s.sweep, status: 'error', error: messageOf(err), progress: null },
      }));
    }
  }

  async findLargestBatch(): Promise<void> {
    const transport = this.sweepReady();
    const { config, dataset } = labStore.getState();
    if (!transport) return;
    const problems = validateTrainConfig(config);
    if (problems.length > 0) {
      labStore.setState((s) => ({ sweep: { ...s.sweep, status: 'error', error: problems.join(' ') } }));
      return;
    }
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
    labStore.setState((s) => ({
      sweep: {
        ...s.sweep,
        points: [],
        status: 'running',
        error: null,
        progress: null,
        config,
        largest: { status: 'running', batch: null, tried: [] },
      },
    }));
    try {
      const result = (await transport.send(
        {
          type: 'find-largest',
          config,
          preset,
          size,
          lo: 1,
          hi: LARGEST_BATCH_CEILING,
          numClasses: dataset.scan?.classes.length ?? DEFAULT_PLANNER_CLASSES,
        },
        onSweepEvent,
      )) as LargestBatchResult;
      const tried = result.points.map((p) => ({ batch: p.batch, fits: p.status === 'measured' }));
      labStore.setState((s) => ({
        sweep: { ...s.sweep, status: 'done', largest: { status: 'done', batch: result.largest, tried } },
      }));
      appendLog(
        'info',
        result.largest === null
          ? `Largest batch: not even 1 fits at ${size}×${size} (${preset.label}).`
          : `Largest batch that fits at ${size}×${size} (${preset.label}): ${result.largest}, after ${tried.length} measured steps.`,
      );
    } catch (err) {
      labStore.setState((s) => ({
        sweep: {
          ...s.sweep,
          status: 'error',
          error: messageOf(err),
          largest: { ...s.sweep.largest, status: 'idle' },
        },
      }));
    }
  }

  async stopSweep(): Promise<void> {
    if (labStore.getState().sweep.status !== 'running' || !this.transport) return;
    await this.transport.send({ type: 'stop' });
  }

  async loadWeights(files: File[]): Promise<void> {
    await this.readWeights({ type: 'load-weights', files });
  }

  async loadWeightsFromUrl(url: string): Promise<void> {
    await this.readWeights({ type: 'load-weights', url: url.trim() });
  }

  private async readWeights(request: { type: 'load-weights'; files?: File[]; url?: string }): Promise<void> {
    const transport = this.transport;
    const busy = ['running', 'stopping'].includes(labStore.getState().run.status);
    if (!transport || busy) return;
    const setWeights = (w: Partial<LabState['weights']>) =>
      labStore.setState((s) => ({ weights: { ...s.weights, ...w } }));
    setWeights({ status: 'loading', error: null });
    try {
      const loaded = (await transport.send(request)) as WeightsLoaded;
      setWeights({ status: 'ready', loaded, key: '' });
      appendLog('info', `Weights read: ${loaded.label} (${loaded.format}).`);
      if (loaded.kind === 'graph-model')
        appendLog('warn', loaded.reason ?? 'A GraphModel cannot be fine-tuned.');
      else updateConfig({ weights: 'file' });
    } catch (err) {
      setWeights({ status: 'error', error: messageOf(err) });
      appendLog('error', messageOf(err));
    }
  }

  /** Keeps the weights' match report in step with the chosen weights and model, never mid-run. */
  private async refreshWeightsReport(): Promise<void> {
    const { config, dataset, engine, run, weights, sweep } = labStore.getState();
    const transport = this.transport;
    const numClasses = dataset.scan?.classes.length ?? DEFAULT_PLANNER_CLASSES;
    const key = `${config.weights}|${config.model}|${config.height}|${config.width}|${numClasses}|${weights.loaded?.label ?? ''}`;
    const busy = run.status === 'running' || run.status === 'stopping' || sweep.status === 'running';
    if (!transport || engine.status !== 'ready' || busy || key === weights.key || key === this.reportInFlight)
      return;
    if (config.weights === 'random' || validateTrainConfig(config).length > 0) {
      labStore.setState((s) => ({ weights: { ...s.weights, report: null, key } }));
      return;
    }
    this.reportInFlight = key;
    try {
      const report = (await transport.send({ type: 'weights-report', config, numClasses })) as WeightsReport;
      labStore.setState((s) => ({ weights: { ...s.weights, report, key, error: null } }));
    } catch (err) {
      labStore.setState((s) => ({ weights: { ...s.weights, report: null, key, error: messageOf(err) } }));
    } finally {
      this.reportInFlight = '';
    }
  }

  async train(): Promise<void> {
    await this.run();
  }

  async applyRemedy(remedy: Remedy): Promise<void> {
    const { run } = labStore.getState();
    if (run.status !== 'oom') return;
    updateConfig(remedy.patch);
    appendLog('info', `Remedy applied: ${remedy.title}.`);
    await this.run(run.result?.lastPhase ?? undefined);
  }

  async provokeBufferLimit(): Promise<void> {
    const transport = this.transport;
    const { run, provoke } = labStore.getState();
    if (!transport || run.status === 'running' || run.status === 'stopping' || provoke.status === 'running')
      return;
    labStore.setState({ provoke: { status: 'running', result: null, error: null } });
    try {
      const result = (await transport.send({ type: 'provoke', kind: 'buffer-limit' })) as ProvokeResult;
      labStore.setState({ provoke: { status: 'done', result, error: null } });
      if (result.caught) appendLog('warn', `Provoked on purpose and caught: ${oomMessage(result.caught)}`);
    } catch (err) {
      labStore.setState({ provoke: { status: 'error', result: null, error: messageOf(err) } });
    }
  }

  async releaseAll(): Promise<void> {
    const transport = this.transport;
    const { run, memory } = labStore.getState();
    if (
      !transport ||
      run.status === 'running' ||
      run.status === 'stopping' ||
      memory.release.status === 'running'
    )
      return;
    const setRelease = (release: LabState['memory']['release']) =>
      labStore.setState((s) => ({ memory: { ...s.memory, release } }));
    setRelease({ status: 'running', result: null, error: null });
    try {
      const result = (await transport.send({ type: 'release' })) as ReleaseResult;
      setRelease({ status: 'done', result, error: null });
      labStore.setState((s) => ({ engine: { ...s.engine, backend: result.backend } }));
      appendLog(
        'info',
        `Released everything and re-created ${result.backend.name}: live ${formatBytes(result.before.liveBytes)} → ${formatBytes(result.after.liveBytes)}` +
          (result.before.allocatedBytes !== undefined
            ? `, allocated incl. pool ${formatBytes(result.before.allocatedBytes)} → ${formatBytes(result.after.allocatedBytes ?? 0)}.`
            : '.'),
      );
    } catch (err) {
      setRelease({ status: 'error', result: null, error: messageOf(err) });
    }
  }

  /** Starts a run; with `resumeFrom`, continues the kept model from that phase. */
  private async run(resumeFrom?: TrainingPhase): Promise<void> {
    const state = labStore.getState();
    const transport = this.transport;
    if (
      !transport ||
      state.engine.status !== 'ready' ||
      state.run.status === 'running' ||
      state.run.status === 'stopping' ||
      state.sweep.status === 'running'
    )
      return;
    const problems = validateTrainConfig(state.config);
    const payload = this.payload();
    if (!payload) problems.unshift('Load a data set with at least two classes first.');
    if (problems.length > 0 || !payload) {
      labStore.setState({ run: { ...INITIAL_RUN, status: 'failed', error: problems.join(' ') } });
      return;
    }
    const config = state.config;
    const batchesPerEpoch = Math.ceil(payload.train.length / config.batchSize);
    const epochs = (resumeFrom === 'fine-tune' ? 0 : config.frozenEpochs) + config.fineTuneEpochs;
    const last = state.run;
    const previous =
      last.config && last.batches.length > 0
        ? { config: last.config, backend: last.backend, peaks: stepPeaks(last.batches) }
        : last.previous;
    labStore.setState({
      run: {
        ...INITIAL_RUN,
        previous,
        status: 'running',
        config,
        backend: state.engine.backend?.name ?? null,
        progress: { done: 0, total: epochs * batchesPerEpoch },
      },
      memory: { samples: [], markers: [], release: { status: 'idle', result: null, error: null } },
    });
    try {
      const result = (await transport.send(
        { type: 'train', config, dataset: payload, resumeFrom },
        onEngineEvent,
      )) as TrainResult;
      // EarlyStopping can end the last phase early; the plan then ends where training did.
      labStore.setState((s) => ({
        run: {
          ...s.run,
          status: result.outcome === 'stopped' || result.outcome === 'oom' ? result.outcome : 'completed',
          result,
          oom: result.oom ?? null,
          progress: { done: s.run.progress.done, total: s.run.progress.done },
        },
      }));
      appendLog('info', describeResult(result));
    } catch (err) {
      labStore.setState((s) => ({ run: { ...s.run, status: 'failed', error: messageOf(err) } }));
      appendLog('error', `Training failed: ${messageOf(err)}`);
    }
  }

  async stop(): Promise<void> {
    if (labStore.getState().run.status !== 'running' || !this.transport) return;
    labStore.setState((s) => ({ run: { ...s.run, status: 'stopping' } }));
    await this.transport.send({ type: 'stop' });
  }
}

/** Applies a sweep's progress to the store. */
function onSweepEvent(e: EngineEvent): void {
  if (e.kind !== 'sweep-point') return;
  labStore.setState((s) => ({
    sweep: {
      ...s.sweep,
      points: [...s.sweep.points, e.point],
      progress: s.sweep.progress ? { ...s.sweep.progress, done: s.sweep.progress.done + 1 } : null,
    },
  }));
}

/** Applies one engine event to the store. */
function onEngineEvent(e: EngineEvent): void {
  switch (e.kind) {
    case 'phase':
      labStore.setState((s) => {
        const plannedBefore = s.run.phases.length === 0 ? 0 : s.run.progress.done;
        const remainingPhases =
          e.phase === 'frozen' ? (s.run.config?.fineTuneEpochs ?? 0) * e.batchesPerEpoch : 0;
        return {
          run: {
            ...s.run,
            phases: [...s.run.phases, { ...e }],
            progress: {
              done: s.run.progress.done,
              total: plannedBefore + e.epochs * e.batchesPerEpoch + remainingPhases,
            },
          },
          memory: {
            ...s.memory,
            markers: [
              ...s.memory.markers,
              { t: e.t, label: e.phase === 'frozen' ? 'frozen phase' : 'fine-tune phase' },
            ],
          },
        };
      });
      appendLog(
        'info',
        `${e.phase === 'frozen' ? 'Phase 1, backbone frozen' : 'Phase 2, fine-tuning'}: ${e.trainableParams.toLocaleString('en-US')} of ${e.totalParams.toLocaleString('en-US')} parameters trainable in ${e.trainableLayers} layers.`,
      );
      return;
    case 'batch':
      labStore.setState((s) => {
        const step = s.run.batches.length + 1;
        const markers =
          e.batch === 0
            ? [...s.memory.markers, { t: e.t - e.stepMs, label: `epoch ${e.epoch + 1}` }]
            : s.memory.markers;
        return {
          run: {
            ...s.run,
            batches: [
              ...s.run.batches,
              {
                step,
                phase: e.phase,
                epoch: e.epoch,
                batch: e.batch,
                loss: e.loss,
                accuracy: e.accuracy,
                stepMs: e.stepMs,
                breakdown: e.breakdown,
                technique: e.technique,
                lossScale: e.lossScale,
                ...(e.peakBytes !== undefined ? { peakBytes: e.peakBytes } : {}),
                ...(e.profile ? { profile: e.profile } : {}),
              },
            ],
            progress: { ...s.run.progress, done: s.run.progress.done + 1 },
          },
          memory: { ...s.memory, markers },
        };
      });
      return;
    case 'epoch':
      labStore.setState((s) => ({
        run: {
          ...s.run,
          epochs: [
            ...s.run.epochs,
            {
              epoch: s.run.epochs.length + 1,
              phase: e.phase,
              step: s.run.batches.length,
              loss: e.loss,
              accuracy: e.accuracy,
              valLoss: e.valLoss,
              valAccuracy: e.valAccuracy,
            },
          ],
        },
      }));
      return;
    case 'memory':
      labStore.setState((s) => ({
        memory: { ...s.memory, samples: [...s.memory.samples, ...e.samples].slice(-MAX_SAMPLES) },
      }));
      return;
    case 'log':
      appendLog(e.level, e.message);
      return;
    case 'backend':
      labStore.setState((s) => ({ engine: { ...s.engine, backend: e.info } }));
      return;
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

async function pageHasGpu(request: BackendRequest): Promise<boolean> {
  if (request !== 'auto' && request !== 'webgpu') return false;
  return 'gpu' in navigator && !!(await navigator.gpu.requestAdapter().catch(() => null));
}

function fromPicked(picked: PickedFile[]): { found: FoundFile; source: ImageSource }[] {
  return picked.map((p) => ({
    found: { path: p.path, size: p.file.size },
    source: { kind: 'file', file: p.file },
  }));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
