import { describe, expect, it } from 'vitest';
import type { SavedRunSummary } from '../core/run/resume';
import { scanFiles } from '../core/data/scan';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { initialState } from './initial';
import { datasetListed, datasetReady } from './reducers';
import { resumeRequested, savedRunCleared, savedRunDiscarded, savedRunFound } from './resumeReducers';
import { loadedIdentity } from './resumeSelectors';
import type { LabState } from './types';

/** A ready data set of two dropped files, with their sizes and dates. */
function withFiles(sizes: [number, number]): LabState {
  const scan = scanFiles([{ path: 'pets/cat/1.png' }, { path: 'pets/dog/2.png' }]);
  const sources = sizes.map((size, i) => ({
    kind: 'file' as const,
    file: new File([new Uint8Array(size)], `${i}.png`, { lastModified: 1000 + i }),
  }));
  const listed = { name: 'pets', scan, sources };
  return datasetReady(datasetListed(initialState(), listed), listed);
}

function summaryFor(s: LabState): SavedRunSummary {
  return {
    savedAt: 1,
    config: { ...DEFAULT_TRAIN_CONFIG, batchSize: 3, frozenEpochs: 4 },
    data: loadedIdentity(s)!,
    point: {
      phase: 'frozen',
      epoch: 1,
      phaseEpochs: 4,
      epochIndex: 1,
      phasesDone: [],
      valLosses: [1],
      last: { loss: 1, accuracy: 0.3 },
    },
    bytes: 10,
  };
}

describe('resume reducers', () => {
  const trained = withFiles([10, 20]);
  const summary = summaryFor(trained);

  it('arms the saved run on the same files and brings its settings back', () => {
    const s = resumeRequested(savedRunFound(withFiles([10, 20]), summary), 5);
    expect(s.savedRun.status).toBe('armed');
    expect(s.config).toEqual(summary.config);
    expect(s.notice).toBeNull();
  });

  it('asks for the data without any, refuses other files, and changes no setting', () => {
    const none = resumeRequested(savedRunFound(initialState(), summary), 5);
    expect(none.savedRun.status).toBe('offered');
    expect(none.notice?.message).toMatch(/Load the data the run trained on first \("pets", 2 images\)/);
    const other = resumeRequested(savedRunFound(withFiles([10, 21]), summary), 5);
    expect(other.savedRun.status).toBe('offered');
    expect(other.notice?.message).toMatch(/^Resume refused: the loaded data/);
    expect(other.config).toEqual(DEFAULT_TRAIN_CONFIG);
  });

  it('discards, clears, and never lets a found run replace an armed one', () => {
    const armed = resumeRequested(savedRunFound(withFiles([10, 20]), summary), 5);
    expect(savedRunFound(armed, { ...summary, savedAt: 2 }).savedRun.summary?.savedAt).toBe(1);
    expect(savedRunDiscarded(savedRunFound(initialState(), summary)).savedRun.status).toBe('discarding');
    expect(savedRunCleared(armed).savedRun).toEqual({ status: 'none', summary: null });
  });
});
