import { describe, expect, it } from 'vitest';
import {
  csv,
  epochsCsv,
  measurementsJson,
  memoryCsv,
  stepsCsv,
  sweepCsv,
  type StepRow,
} from './measurements';

const rows = (text: string) => text.trimEnd().split('\r\n');

describe('measurement CSVs', () => {
  it('writes one row per memory sample after the header, optional columns empty', () => {
    const text = memoryCsv([
      { t: 0, liveBytes: 100, numTensors: 3 },
      { t: 16.5, liveBytes: 2048, numTensors: 9, gpuBytes: 4096, allocatedBytes: 8192 },
    ]);
    expect(rows(text)).toEqual([
      't_ms,live_bytes,num_tensors,gpu_bytes,allocated_bytes',
      '0,100,3,,',
      '16.5,2048,9,4096,8192',
    ]);
  });

  it('quotes text with commas, quotes or line breaks (RFC 4180)', () => {
    expect(
      rows(
        csv(
          ['a', 'b'],
          [
            ['x,y', 'say "hi"'],
            ['line\nbreak', null],
          ],
        ),
      ),
    ).toEqual(['a,b', '"x,y","say ""hi"""', '"line\nbreak",']);
  });

  it('writes steps with bytes by category, epochs and sweep points', () => {
    const step: StepRow = {
      step: 1,
      phase: 'fine-tune',
      epoch: 0,
      batch: 0,
      loss: 1.5,
      accuracy: 0.25,
      stepMs: 12,
      t: 40,
      peakBytes: 999,
      breakdown: {
        weights: 10,
        gradients: 20,
        optimizer: 40,
        savedActivations: 300,
        savedByLayer: [],
        largestSaved: { layer: 'block1a_dwconv', shape: [1, 2], bytes: 8 },
        input: 5,
      },
    };
    expect(rows(stepsCsv([step]))[1]).toBe(
      '1,fine-tune,0,0,1.5,0.25,12,40,999,10,20,40,300,5,block1a_dwconv',
    );
    expect(
      rows(
        epochsCsv([
          { epoch: 1, phase: 'frozen', loss: 1, accuracy: 0.5, valLoss: Number.NaN, valAccuracy: 0.5 },
        ]),
      )[1],
    ).toBe('1,frozen,1,0.5,NaN,0.5');
    const sweep = sweepCsv([
      {
        presetId: 'p',
        batch: 8,
        size: 64,
        status: 'oom',
        predictedBytes: 5,
        oomKind: 'budget',
        oomLayer: 'stem_conv',
      },
    ]);
    expect(rows(sweep)[1]).toBe('p,8,64,oom,,5,,,budget,stem_conv');
  });

  it('keeps everything in the JSON document, with NaN as null', () => {
    const doc = JSON.parse(
      measurementsJson({
        config: null,
        backend: 'cpu',
        samples: [{ t: 1, liveBytes: 2, numTensors: 3 }],
        steps: [],
        epochs: [{ epoch: 1, phase: 'frozen', loss: Number.NaN, accuracy: 0, valLoss: 1, valAccuracy: 1 }],
        predictions: [],
        sweep: [],
      }),
    ) as { backend: string; samples: unknown[]; epochs: { loss: unknown }[] };
    expect(doc.backend).toBe('cpu');
    expect(doc.samples).toHaveLength(1);
    expect(doc.epochs[0]!.loss).toBeNull();
  });
});
