// Weights Python hands to Node: a JSON manifest (layers in Keras order, each weight's path, shape and
// offset) over one raw float32 file. Independent of every weight-file reader the lab has, so output and
// training comparisons do not depend on the loaders they are not testing.
import * as tf from '@tensorflow/tfjs';
import { readFileSync, writeFileSync } from 'node:fs';
import type { WeightSource } from '../../src/ml/weights';
import { readFloat32, writeFloat32 } from './common';

interface ManifestWeight {
  name: string;
  shape: number[];
  offset: number;
}

interface Manifest {
  layers: { name: string; weights: ManifestWeight[] }[];
}

const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** The manifest at `path` (its values beside it, `<path>.bin`) as a WeightSource. */
export function manifestSource(path: string): WeightSource {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  const values = readFloat32(`${path}.bin`);
  return {
    label: path,
    layers: manifest.layers.map((layer) => ({
      name: layer.name,
      weights: layer.weights.map((w) => ({
        name: w.name,
        shape: w.shape,
        read: () => values.slice(w.offset, w.offset + size(w.shape)),
      })),
    })),
  };
}

/** Writes every weight of `model` (by '<layer>/<weight>' name) in the manifest format, for Python. */
export function writeModelWeights(model: tf.LayersModel, path: string): void {
  const layers: Manifest['layers'] = [];
  const chunks: Float32Array[] = [];
  let offset = 0;
  for (const layer of model.layers) {
    if (layer.weights.length === 0) continue;
    const weights = layer.weights.map((w) => {
      const data = Float32Array.from(w.read().dataSync());
      chunks.push(data);
      const entry = { name: w.originalName, shape: w.shape.map((d) => d ?? 0), offset };
      offset += data.length;
      return entry;
    });
    layers.push({ name: layer.name, weights });
  }
  const all = new Float32Array(offset);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  writeFloat32(`${path}.bin`, all);
  writeFileSync(path, JSON.stringify({ layers }));
}
