// Files that leave the lab: the exported model packed for one download.
import { strToU8, zipSync } from 'fflate';
import type { ModelFile } from '../core/run/protocol';

/** One file to save, as the page hands it to the browser's download. */
export interface DownloadFile {
  name: string;
  bytes: Uint8Array;
  /** MIME type. */ type: string;
}

const README = `A tfjs Layers model exported by VRAM Lab.

Load it with tf.loadLayersModel: serve this folder and load 'model.json', or pick model.json and
weights.bin with tf.io.browserFiles. Its input is [batch, height, width, 3] pixels in 0-255 (the
preprocessing is part of the model). check.json holds the lab's prediction for an image whose pixels
are all 127.5: a reloaded model should give the same.
`;

/**
 * The tfjs Layers files as one zip (fflate: small, synchronous, no worker needed), with a README; the
 * weights are stored uncompressed since float32 data barely compresses.
 */
export function zipModel(files: readonly ModelFile[]): Uint8Array {
  const entries = Object.fromEntries(
    files.map((f) => [f.name, [f.bytes, { level: f.name.endsWith('.bin') ? 0 : 6 }] as const]),
  );
  return zipSync({ ...entries, 'README.txt': strToU8(README) });
}

/** The download for an exported model: the tfjs files zipped, or the one Keras .h5 file as it is. */
export function modelDownload(
  format: 'tfjs-layers' | 'keras-h5',
  files: readonly ModelFile[],
  stem: string,
): DownloadFile {
  if (format === 'tfjs-layers')
    return { name: `${stem}-tfjs.zip`, bytes: zipModel(files), type: 'application/zip' };
  const [h5] = files;
  if (!h5 || files.length !== 1) throw new Error(`Expected one .h5 file, got ${files.length}.`);
  return { name: `${stem}.h5`, bytes: h5.bytes, type: 'application/x-hdf5' };
}
