import type { WeightReport } from './report';

/** Every way a weight file can be refused; the UI can branch on `kind` and show `message` as is. */
export type WeightErrorKind =
  /** The bytes are not an HDF5 file (no HDF5 signature). */
  | 'not-hdf5'
  /** HDF5, but without Keras' `layer_names` / `weight_names` layout. */
  | 'not-keras-h5'
  /** A Keras 3 `.weights.h5` file that does not name its layers (only class-based paths). */
  | 'keras3-weights-h5'
  /** A zip that is not a Keras 3 `.keras` archive (no readable `model.weights.h5`). */
  | 'bad-keras-archive'
  /** Larger than the caller's limit, refused before reading. */
  | 'too-large'
  /** Structure promises data the file does not hold, or HDF5 failed to read it. */
  | 'corrupt'
  /** A weight stored in a type the lab cannot load (for example float16). */
  | 'unsupported-dtype'
  /** Same-named layer, different weight shapes or weight count. */
  | 'shape-mismatch'
  /** Not a single layer with weights has a same-named layer in the model. */
  | 'nothing-matched'
  /** The model has a backbone and not one of its layers is in the file (only the head would load). */
  | 'backbone-unmatched'
  /** Model layers with weights absent from the file, and the caller asked for all of them. */
  | 'missing-layers'
  /** File layers absent from the model, and the caller asked for none. */
  | 'unexpected-layers'
  /** model.json that is not valid JSON or not a tfjs model description. */
  | 'bad-model-json'
  /** A weight shard named in model.json was not provided. */
  | 'missing-shard'
  /** Weight shards whose size differs from what model.json declares. */
  | 'shard-size'
  /** A layer class in model.json that tfjs does not know. */
  | 'unknown-layer-class'
  /** tfjs itself refused the model. */
  | 'load-failed'
  /** A URL that could not be fetched or answered an HTTP error. */
  | 'fetch-failed'
  /** Dropped files that are neither one Keras .h5 file nor a tfjs model.json with shards. */
  | 'unrecognised-files';

export class WeightLoadError extends Error {
  override name = 'WeightLoadError';

  constructor(
    /** Which failure this is. */
    readonly kind: WeightErrorKind,
    /** The file (or model) the weights came from. */
    readonly file: string,
    message: string,
    /** The match report, when the failure came from matching. */
    readonly report?: WeightReport,
  ) {
    super(message);
  }
}
