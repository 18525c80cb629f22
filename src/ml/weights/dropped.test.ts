import { describe, expect, it } from 'vitest';
import { WeightLoadError } from './errors';
import { fetchWeightFiles, readWeightFiles } from './dropped';

const fileOf = (name: string, text = '') => {
  const bytes = new TextEncoder().encode(text);
  return { name, size: bytes.length, arrayBuffer: async () => bytes.buffer };
};

describe('dropped or fetched weight files', () => {
  it('takes a single .h5, .weights.h5 or .keras file as Keras weights', async () => {
    for (const name of ['efficientnetb0_notop.h5', 'model.weights.h5', 'model.keras']) {
      const files = await readWeightFiles([fileOf(name, 'x')]);
      expect(files).toMatchObject({ kind: 'keras-h5', label: name });
    }
  });

  it('takes a model.json as tfjs, and names what it could not use', async () => {
    await expect(readWeightFiles([fileOf('model.json', '{}')])).rejects.toThrow('has no modelTopology');
    const error = await readWeightFiles([fileOf('a.png'), fileOf('b.bin')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeightLoadError);
    expect((error as Error).message).toBe(
      'a.png, b.bin: drop one Keras file (.h5, .weights.h5 or .keras), or a tfjs model.json together with its shards.',
    );
  });

  it('fetches an .h5 URL as bytes and reports HTTP failures with the URL', async () => {
    const ok = async () => new Response(new Uint8Array([1, 2, 3]));
    const files = await fetchWeightFiles('https://example.test/w.h5', ok);
    expect(files.kind === 'keras-h5' && Array.from(files.bytes)).toEqual([1, 2, 3]);
    const missing = async () => new Response(null, { status: 404 });
    await expect(fetchWeightFiles('https://example.test/w.h5', missing)).rejects.toThrow(
      'https://example.test/w.h5: answered HTTP 404',
    );
  });
});
