import { describe, expect, it } from 'vitest';
import { initialState } from './initial';
import {
  datasetCancelled,
  datasetListed,
  datasetReady,
  datasetScanning,
  deviceLost,
  logged,
  MAX_LOG,
  noticeCleared,
  plannerAlternate,
  refused,
  weightsFailed,
  weightsLoaded,
  weightsLoading,
  weightsReported,
} from './reducers';
import { runStarted } from './runReducers';
import { scanFiles } from '../core/data/scan';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { selectCanTrain, selectSpecs, selectTrainableSet, selectWeightsError } from './selectors';

describe('reducers', () => {
  it("shows a failed load's error whether the choice's report failed before or after it", () => {
    const noFile = 'No weights file is loaded in this session';
    const refused = 'file:///etc/passwd: only http(s) addresses are fetched';
    const loading = weightsLoading(initialState());
    const reportFirst = weightsFailed(weightsReported(loading, 'k', null, noFile), refused);
    const reportLast = weightsReported(weightsFailed(loading, refused), 'k', null, noFile);
    expect(selectWeightsError(reportFirst)).toBe(refused);
    expect(selectWeightsError(reportLast)).toBe(refused);
    // Another load clears the failure; the choice's own error shows until a report replaces it.
    expect(selectWeightsError(weightsLoading(reportLast))).toBe(noFile);
    expect(selectWeightsError(weightsReported(weightsLoading(reportLast), 'k2', null))).toBeNull();
  });

  it('lists a folder as scanning (Train waits for the check), then ready; cancel leaves no data set', () => {
    const scan = scanFiles([{ path: 'flowers/a/1.png' }, { path: 'flowers/b/2.png' }]);
    const listed = { name: 'flowers', scan, sources: [] };
    const scanning = datasetListed(initialState(), listed);
    expect(scanning.dataset).toMatchObject({ status: 'scanning', name: 'flowers', scan });
    expect(selectCanTrain(scanning)).toBe(false);
    expect(datasetReady(scanning, listed).dataset.status).toBe('ready');
    const cancelled = datasetCancelled(scanning);
    expect(cancelled.dataset).toMatchObject({ status: 'empty', scan: null, sources: [] });
    expect(selectCanTrain(cancelled)).toBe(false);
  });

  it('keeps the last 200 log lines', () => {
    let s = initialState();
    for (let i = 0; i < MAX_LOG + 5; i++) s = logged(s, 'info', `line ${i}`, i);
    expect(s.log).toHaveLength(MAX_LOG);
    expect(s.log[0]!.message).toBe('line 5');
  });

  it('shows a refused command and logs it, until the next command clears it', () => {
    const s = refused(
      initialState(),
      'Loading a folder is not possible while a training run is going on.',
      7,
    );
    expect(s.notice).toEqual({
      message: 'Loading a folder is not possible while a training run is going on.',
      at: 7,
    });
    expect(s.log.at(-1)?.level).toBe('warn');
    expect(noticeCleared(s).notice).toBeNull();
  });

  it('fails a run in progress when the device is lost, and leaves a finished one alone', () => {
    const running = runStarted(initialState(), {
      config: DEFAULT_TRAIN_CONFIG,
      plan: { trainCount: 8, validationCount: 2, resumeFrom: null },
      appliedFix: null,
    });
    const loss = { reason: 'destroyed', message: '', what: 'GPU device lost (destroyed)', at: 1 };
    const lost = deviceLost(running, loss);
    expect(lost.run.status).toBe('failed');
    expect(lost.run.error).toContain('GPU device lost');
    expect(lost.engine.lastLoss?.reason).toBe('destroyed');
    expect(deviceLost(initialState(), loss).run.status).toBe('idle');
  });

  it('chooses loaded weights for the run, unless they are a GraphModel', () => {
    const s = { ...initialState(), config: { ...DEFAULT_TRAIN_CONFIG, weights: 'random' as const } };
    const h5 = weightsLoaded(s, { kind: 'keras-h5', label: 'w.h5', format: 'Keras HDF5' });
    expect(h5.config.weights).toBe('file');
    const graph = weightsLoaded(s, { kind: 'graph-model', label: 'model.json', format: 'GraphModel' });
    expect(graph.config.weights).toBe('random');
  });

  it('chooses a loaded graph model as the frozen backbone: its input size, no fine-tune epochs', () => {
    const s = { ...initialState(), config: { ...DEFAULT_TRAIN_CONFIG, fineTuneEpochs: 3 } };
    const inputSize = { height: 32, width: 48 };
    const loaded = { kind: 'graph-model', label: 'model.json', format: 'GraphModel', inputSize } as const;
    const { config } = weightsLoaded(s, loaded);
    expect(config).toMatchObject({ weights: 'graph', height: 32, width: 48, fineTuneEpochs: 0 });
    expect(config.frozenEpochs).toBeGreaterThan(0);
  });

  it('forgets the preview of the previous data set when a new one starts loading', () => {
    const s = { ...initialState(), preview: { status: 'ready' as const, images: [], error: null } };
    expect(datasetScanning(s, 'flowers').preview.status).toBe('idle');
  });

  it('derives the trainable set from the rule and the described model only', () => {
    const s = initialState();
    expect(selectTrainableSet(s).size).toBe(0);
    const spec = {
      name: 'toy',
      height: 8,
      width: 8,
      backboneLayerCount: 3,
      layers: ['input_layer', 'a', 'b', 'head'].map((name) => ({ name }) as never),
    };
    const withSpec = {
      ...s,
      planner: { ...s.planner, spec },
      config: { ...s.config, fineTune: { kind: 'all' as const } },
    };
    expect([...selectTrainableSet(withSpec)]).toEqual(['input_layer', 'a', 'b', 'head']);
    // Same inputs, same object: views subscribed to it do not re-render.
    expect(selectTrainableSet({ ...withSpec })).toBe(selectTrainableSet(withSpec));
  });
});

describe('descriptions of the model at other sizes', () => {
  const at = (height: number) => ({ name: 'tiny', height, width: height, backboneLayerCount: 1, layers: [] });

  it('keeps one per size for the current model and classes, and drops them for another model', () => {
    let s = initialState();
    s = plannerAlternate(s, 'tiny|3', at(40));
    s = plannerAlternate(s, 'tiny|3', at(40));
    s = plannerAlternate(s, 'tiny|3', at(32));
    expect(s.planner.alternates.specs.map((x) => x.height)).toEqual([40, 32]);
    const tiny = {
      ...s,
      config: { ...s.config, model: 'tiny' as const },
      planner: { ...s.planner, spec: at(48) },
    };
    expect(selectSpecs(tiny).map((x) => x.height)).toEqual([48, 40, 32]);
    const other = { ...tiny, config: { ...tiny.config, model: 'b0' as const } };
    expect(selectSpecs(other).map((x) => x.height)).toEqual([48]);
    expect(plannerAlternate(s, 'b0|3', at(40)).planner.alternates.specs).toHaveLength(1);
  });
});
