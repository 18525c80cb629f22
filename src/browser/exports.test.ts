import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { modelDownload, zipModel } from './exports';

const files = [
  { name: 'model.json', bytes: new TextEncoder().encode('{"format":"layers-model"}') },
  { name: 'weights.bin', bytes: new Uint8Array([1, 2, 3, 4, 250]) },
  { name: 'check.json', bytes: new TextEncoder().encode('{"output":[1]}') },
];

describe('model downloads', () => {
  it('zips the tfjs files byte for byte, with a README', () => {
    const unzipped = unzipSync(zipModel(files));
    expect(Object.keys(unzipped).sort()).toEqual(['README.txt', 'check.json', 'model.json', 'weights.bin']);
    for (const f of files) expect([...unzipped[f.name]!]).toEqual([...f.bytes]);
  });

  it('names the download after the model and its format', () => {
    expect(modelDownload('tfjs-layers', files, 'tiny-64x64').name).toBe('tiny-64x64-tfjs.zip');
    const h5 = modelDownload('keras-h5', [{ name: 'x.h5', bytes: new Uint8Array([7]) }], 'tiny-64x64');
    expect(h5).toEqual({ name: 'tiny-64x64.h5', bytes: new Uint8Array([7]), type: 'application/x-hdf5' });
    expect(() => modelDownload('keras-h5', files, 's')).toThrow(/one \.h5/);
  });
});
