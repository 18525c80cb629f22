import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import type { DecodedImage } from '../src/ml/data/pipeline';
import type { Sample } from './float16Accuracy';

const SAMPLE = new URL('../public/sample/', import.meta.url);

/** The built-in sample read from public/sample in Node: every PNG of manifest.json, labelled by its folder. */
export function nodeSample(): Sample {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', SAMPLE), 'utf8')) as {
    files: { path: string }[];
  };
  const classes = [...new Set(manifest.files.map(({ path }) => path.split('/')[0]!))].sort();
  const images = new Map<string, DecodedImage>();
  const items = manifest.files.map(({ path }) => {
    const png = pngjs.PNG.sync.read(readFileSync(fileURLToPath(new URL(path, SAMPLE))));
    images.set(path, { data: png.data, width: png.width, height: png.height, channels: 4 });
    return { path, label: classes.indexOf(path.split('/')[0]!) };
  });
  return { items, images, classes: classes.length };
}
