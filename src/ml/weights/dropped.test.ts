import { describe, expect, it } from 'vitest';
import { WeightLoadError } from './errors';
import { fetchWeightFiles, readWeightFiles } from './dropped';

const fileOf = (name: string, text = '') => {
  const bytes = new TextEncoder().encode(text);
  return { name, size: bytes.length, arrayBuffer: async () => bytes.buffer };
};

describe('dropped or fetched weight files', () => {
  it('takes a single .h5 file as Keras weights', async () => {
    const files = await readWeightFiles([fileOf('efficientnetb0_notop.h5', 'x')]);
    expect(files).toMatchObject({ kind: 'keras-h5', label: 'efficientnetb0_notop.h5' });
  });

  it('takes a model.json as tfjs, and names what it could not use', async () => {
    await expect(readWeightFiles([fileOf('model.json', '{}')])).rejects.toThrow('has no modelTopology');
    await expect(readWeightFiles([fileOf('model.keras')])).rejects.toThrow('Keras 3 .keras archive');
    const error = await readWeightFiles([fileOf('a.png'), fileOf('b.bin')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeightLoadError);
    expect((error as Error).message).toBe(
      'a.png, b.bin: drop one Keras .h5 file, or a tfjs model.json together with its shards.',
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
