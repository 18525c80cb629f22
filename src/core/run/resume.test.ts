import { describe, expect, it } from 'vitest';
import {
  dataMismatch,
  datasetIdentity,
  datasetIdentitySliced,
  pointAfter,
  resumeLabel,
  type EndedEpoch,
} from './resume';

const PLAN = [
  { phase: 'frozen' as const, epochs: 2 },
  { phase: 'fine-tune' as const, epochs: 3 },
];

function ended(over: Partial<EndedEpoch>): EndedEpoch {
  return {
    phaseIndex: 0,
    epoch: 0,
    earlyStopped: false,
    nextEpochIndex: 1,
    phases: ['frozen'],
    valLosses: [0.9],
    last: { loss: 0.9, accuracy: 0.5 },
    ...over,
  };
}

describe('pointAfter', () => {
  it('continues the same phase at its next epoch, with the phase not yet counted as done', () => {
    const p = pointAfter(PLAN, ended({}));
    expect(p).toEqual({
      phase: 'frozen',
      epoch: 1,
      phaseEpochs: 2,
      epochIndex: 1,
      phasesDone: [],
      valLosses: [0.9],
      last: { loss: 0.9, accuracy: 0.5 },
    });
    expect(resumeLabel(p!)).toBe('epoch 2 of the frozen phase');
  });

  it("after a phase's last epoch, or EarlyStopping, starts the next phase afresh", () => {
    const last = pointAfter(PLAN, ended({ epoch: 1, nextEpochIndex: 2, valLosses: [0.9, 0.8] }));
    expect(last).toMatchObject({
      phase: 'fine-tune',
      epoch: 0,
      epochIndex: 2,
      phasesDone: ['frozen'],
      valLosses: [],
    });
    // An epoch EarlyStopping ends does not advance the epoch count: the loop says so in nextEpochIndex.
    const early = pointAfter(PLAN, ended({ earlyStopped: true, nextEpochIndex: 0 }));
    expect(early).toMatchObject({ phase: 'fine-tune', epoch: 0, epochIndex: 0 });
  });

  it('skips a phase without epochs and says null once no epoch is left', () => {
    const noFineTune = [PLAN[0]!, { phase: 'fine-tune' as const, epochs: 0 }];
    expect(pointAfter(noFineTune, ended({ epoch: 1 }))).toBeNull();
    const fine = ended({ phaseIndex: 1, epoch: 2, phases: ['frozen', 'fine-tune'] });
    expect(pointAfter(PLAN, fine)).toBeNull();
  });
});

describe('datasetIdentity', () => {
  const items = [
    { path: 'a/1.png', label: 0, size: 10, lastModified: 5 },
    { path: 'b/2.png', label: 1, size: 20, lastModified: 6 },
  ];
  const same = datasetIdentity('photos', ['a', 'b'], items);

  it('does not depend on listing order, and changes with a size, a date, a label or a class name', () => {
    expect(datasetIdentity('photos', ['a', 'b'], [...items].reverse())).toEqual(same);
    const changed = [
      datasetIdentity('photos', ['a', 'b'], [{ ...items[0]!, size: 11 }, items[1]!]),
      datasetIdentity('photos', ['a', 'b'], [{ ...items[0]!, lastModified: 7 }, items[1]!]),
      datasetIdentity('photos', ['a', 'b'], [{ ...items[0]!, label: 1 }, items[1]!]),
      datasetIdentity('photos', ['a', 'c'], items),
      datasetIdentity('photos', ['a', 'b'], items.slice(1)),
    ];
    for (const c of changed) expect(c.fingerprint).not.toBe(same.fingerprint);
    expect(same.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses other data by name and count, asks for the data when there are none, accepts the same', () => {
    expect(dataMismatch(same, datasetIdentity('photos', ['a', 'b'], items))).toBeNull();
    expect(dataMismatch(same, null)).toMatch(/Load the data the run trained on first \("photos", 2 images\)/);
    const other = datasetIdentity('Built-in sample', ['a', 'b'], items.slice(1));
    expect(dataMismatch(same, other)).toMatch(
      /Resume refused: the loaded data \("Built-in sample", 1 images\) are not the data the run trained on \("photos", 2 images/,
    );
  });
});

describe('datasetIdentitySliced', () => {
  /** 4,500 items listed out of order, some dropped files and some built-in URLs. */
  const items = Array.from({ length: 4500 }, (_, i) => ({
    path: `c${i % 3}/img_${(i * 7919) % 4500}.png`,
    label: i % 3,
    size: i % 5 === 0 ? undefined : 100 + i,
    lastModified: i % 5 === 0 ? undefined : 1_700_000_000_000 + i,
    url: i % 5 === 0 ? `/sample/${i}.png` : undefined,
  }));
  const classes = ['c0', 'c1', 'c2'];

  it('gives the identity runs were saved under before hashing was sliced', () => {
    // The fingerprint of these items by the one-string hash this replaced (HEAD 5493d43): a run saved
    // then must still resume on the same data.
    expect(datasetIdentity('photos', classes, items).fingerprint).toBe('13642e95f924d6ea');
  });

  it('equals the identity computed at once, for any count, pausing between slices of 2,000 lines', async () => {
    for (const n of [0, 1, 2000, 2001, 4500]) {
      let pauses = 0;
      const pause = () => {
        pauses++;
        return Promise.resolve();
      };
      const sliced = await datasetIdentitySliced('photos', classes, items.slice(0, n), pause);
      expect(sliced).toEqual(datasetIdentity('photos', classes, items.slice(0, n)));
      expect(pauses).toBe(Math.max(0, Math.ceil(n / 2000) - 1));
    }
  });
});
