import { describe, expect, it } from 'vitest';
import { initialState } from './initial';
import { selectViewBadges } from './navSelectors';
import type { LabState } from './types';

const base = initialState();
const withRun = (status: LabState['run']['status']): LabState => ({ ...base, run: { ...base.run, status } });

describe('view badges', () => {
  it('say nothing while nothing goes on', () => {
    expect(selectViewBadges(base)).toEqual({});
    expect(selectViewBadges(withRun('completed'))).toEqual({});
  });

  it('name a run on the train view, an OOM over a run', () => {
    expect(selectViewBadges(withRun('running'))).toEqual({ train: 'training' });
    expect(selectViewBadges(withRun('stopping'))).toEqual({ train: 'training' });
    expect(selectViewBadges(withRun('oom'))).toEqual({ train: 'out of memory' });
  });

  it('put an experiment card’s runs on the experiments view, and a sweep there too', () => {
    const card: LabState = {
      ...withRun('running'),
      experiments: { ...base.experiments, active: { id: 'smaller-batch', side: 'before' } },
    };
    expect(selectViewBadges(card)).toEqual({ experiments: 'experiment running' });
    const sweep: LabState = { ...base, sweep: { ...base.sweep, status: 'running' } };
    expect(selectViewBadges(sweep)).toEqual({ experiments: 'sweep running' });
  });

  it('say the data view is loading while a folder is read', () => {
    const scanning: LabState = { ...base, dataset: { ...base.dataset, status: 'scanning' } };
    expect(selectViewBadges(scanning)).toEqual({ data: 'loading' });
  });
});
