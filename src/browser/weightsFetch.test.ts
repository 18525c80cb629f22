import { describe, expect, it } from 'vitest';
import { fetchWeightFiles, WeightLoadError } from '../ml/weights';
import { checkWeightsUrl, MAX_WEIGHTS_BYTES, weightsFetch } from './weightsFetch';

const ORIGIN = 'https://lab.example';

/** A fetch that serves `bodies` by URL, streaming each in 1 kB chunks, and records what was asked. */
function server(bodies: Record<string, { bytes: number; contentLength?: number }>) {
  const asked: string[] = [];
  const pulled: Record<string, number> = {};
  const fetchFn = async (input: RequestInfo | URL): Promise<Response> => {
    const url = String(input);
    asked.push(url);
    const body = bodies[url];
    if (!body) return new Response('missing', { status: 404 });
    pulled[url] = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const left = body.bytes - pulled[url]!;
        if (left <= 0) return controller.close();
        const n = Math.min(1024, left);
        pulled[url]! += n;
        controller.enqueue(new Uint8Array(n).fill(7));
      },
    });
    const headers =
      body.contentLength === undefined ? undefined : { 'Content-Length': String(body.contentLength) };
    return new Response(stream, { status: 200, headers });
  };
  return { fetchFn: fetchFn as typeof fetch, asked, pulled };
}

describe('checkWeightsUrl', () => {
  it('refuses every scheme but http(s), and says to drop a local file', () => {
    for (const [typed, why] of [
      [
        'file:///home/me/weights.h5',
        'only http(s) addresses are fetched, not file:. For a file on this computer, drop it here instead.',
      ],
      ['data:application/octet-stream;base64,AAAA', 'not data:.'],
      ['javascript:alert(1)', 'not javascript:.'],
      ['blob:https://lab.example/1234', 'not blob:.'],
      ['weights/model.json', 'not a full address'],
    ] as const) {
      expect(() => checkWeightsUrl(typed, ORIGIN)).toThrow(WeightLoadError);
      expect(() => checkWeightsUrl(typed, ORIGIN)).toThrow(why);
    }
  });

  it('allows https anywhere, and plain http only to the own origin or this computer', () => {
    expect(checkWeightsUrl(' https://models.example/b0.h5 ', ORIGIN).href).toBe(
      'https://models.example/b0.h5',
    );
    expect(checkWeightsUrl('http://127.0.0.1:8000/m.json', ORIGIN).hostname).toBe('127.0.0.1');
    expect(checkWeightsUrl('http://localhost/m.json', ORIGIN).hostname).toBe('localhost');
    expect(checkWeightsUrl('http://127.0.0.1:4173/w.h5', 'http://127.0.0.1:4173').port).toBe('4173');
    expect(() => checkWeightsUrl('http://models.example/b0.h5', ORIGIN)).toThrow('use https://');
  });
});

describe('weightsFetch', () => {
  it('refuses by Content-Length before reading any of the body', async () => {
    const s = server({ 'https://m.example/big.h5': { bytes: 10_000, contentLength: 700e6 } });
    const fetch = weightsFetch(ORIGIN, s.fetchFn);
    await expect(fetch('https://m.example/big.h5')).rejects.toThrow(
      'refused before reading it all: the lab reads at most 600 MB for one model (the largest it builds stores about 480 MB), and this file declares 700 MB.',
    );
    expect(s.pulled['https://m.example/big.h5']).toBeLessThanOrEqual(1024);
  });

  it('stops reading a body without Content-Length as soon as it passes the cap', async () => {
    const s = server({ 'https://m.example/endless.h5': { bytes: 50_000 } });
    await expect(weightsFetch(ORIGIN, s.fetchFn, 8_000)('https://m.example/endless.h5')).rejects.toThrow(
      'and this file goes on past that',
    );
    expect(s.pulled['https://m.example/endless.h5']).toBeLessThan(12_000);
  });

  it('counts all files of one load against one cap, and hands error responses back unread', async () => {
    const s = server({
      'https://m.example/a.bin': { bytes: 6_000 },
      'https://m.example/b.bin': { bytes: 6_000 },
    });
    const fetch = weightsFetch(ORIGIN, s.fetchFn, 10_000);
    expect((await (await fetch('https://m.example/a.bin')).arrayBuffer()).byteLength).toBe(6_000);
    await expect(fetch('https://m.example/b.bin')).rejects.toThrow('goes on past that');
    expect((await fetch('https://m.example/nope.bin')).status).toBe(404);
    expect(MAX_WEIGHTS_BYTES).toBe(600e6);
  });

  it('says what a refused cross-origin read means and what to do, through the .h5 loader', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const load = fetchWeightFiles('https://m.example/b0.h5', weightsFetch(ORIGIN, failing));
    await expect(load).rejects.toThrow(
      'https://m.example/b0.h5: cannot fetch it: the server does not allow this page to read the file, or could not be reached: a page may read a file from another site only when that site answers with the header Access-Control-Allow-Origin: https://lab.example (or *) (Failed to fetch). Download the file and drop it here instead, or serve it with that header.',
    );
  });

  it('never calls fetch for an address it refuses', async () => {
    const s = server({});
    await expect(weightsFetch(ORIGIN, s.fetchFn)('file:///etc/passwd')).rejects.toThrow('not file:');
    expect(s.asked).toEqual([]);
  });
});
