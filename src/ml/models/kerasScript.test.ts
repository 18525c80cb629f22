// The generated Keras script against the two things outside core/ it must agree with: the registry's
// keras.applications names, and a Python parser (python3 -m py_compile, present here and on CI).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_AUGMENT } from '../../core/data/augment';
import { kerasApplication, kerasScript, type KerasScriptInput } from '../../core/export/kerasScript';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { MODELS } from './registry';

const dir = mkdtempSync(join(tmpdir(), 'keras-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: KerasScriptInput = {
  config: DEFAULT_TRAIN_CONFIG,
  classNames: ['cat', 'dog', 'it\'s "quoted"'],
  unfrozen: ['top_conv', 'top_bn', 'top_activation'],
  data: { kind: 'folders' },
  remedies: { mixedPrecision: false, memoryGrowth: false },
  prediction: { frozen: 1e8, fineTune: null, card: null },
};

const variants: [string, KerasScriptInput][] = [
  ['defaults', base],
  [
    'every remedy, manifest, no augmentation',
    {
      ...base,
      config: {
        ...DEFAULT_TRAIN_CONFIG,
        model: 'v2-l',
        augment: NO_AUGMENT,
        budgetBytes: 4e9,
        techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, accumulationSteps: 3 },
      },
      data: { kind: 'manifest', file: 'C:\\data\\photos.csv' },
      remedies: { mixedPrecision: true, memoryGrowth: true },
    },
  ],
  [
    'memory growth, MobileNetV2, no fine-tune phase',
    {
      ...base,
      config: { ...DEFAULT_TRAIN_CONFIG, model: 'mobilenetv2', fineTuneEpochs: 0 },
      unfrozen: [],
      remedies: { mixedPrecision: false, memoryGrowth: true },
    },
  ],
  ['no classes known, nothing unfrozen', { ...base, classNames: [], unfrozen: [] }],
];

describe('kerasScript and the rest of the lab', () => {
  it('calls the keras.applications function the registry names for every real architecture', () => {
    for (const m of MODELS) {
      if (m.kerasName === null) expect(kerasApplication(m.id).standIn).not.toBeNull();
      else expect(kerasApplication(m.id)).toMatchObject({ fn: m.kerasName, standIn: null });
      expect(kerasApplication(m.id).preprocessing === 'rescaling').toBe(!m.preprocessingInKeras);
    }
  });

  it.each(variants)('parses as Python: %s', (name, input) => {
    const file = join(dir, `${name.replace(/\W+/g, '_')}.py`);
    writeFileSync(file, kerasScript(input));
    // py_compile exits non-zero with Python's SyntaxError on stderr when the script does not parse.
    expect(() => execFileSync('python3', ['-m', 'py_compile', file], { stdio: 'pipe' })).not.toThrow();
  });
});
