import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import { loadSample, type Sample } from './float16Accuracy';

const SAMPLE = new URL('../public/sample/', import.meta.url);

/** The built-in sample read from public/sample in Node: every PNG of manifest.json, decoded by pngjs. */
export function nodeSample(): Promise<Sample> {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', SAMPLE), 'utf8')) as {
    files: { path: string }[];
  };
  return loadSample(
    manifest.files.map(({ path }) => path),
    async (path) => {
      const png = pngjs.PNG.sync.read(readFileSync(fileURLToPath(new URL(path, SAMPLE))));
      return { data: png.data, width: png.width, height: png.height, channels: 4 };
    },
  );
}
