import type * as tf from '@tensorflow/tfjs';

/**
 * A small graph model in the format tensorflowjs_converter writes (a TensorFlow GraphDef as JSON and a
 * weights manifest), for tests and the e2e spec: images [batch, size, size, 3] -> Conv2D 3x3 (4 filters,
 * SAME) -> Relu (-> AddV2 with the conv's map, see FixtureVariant) -> Mean over height and width: a
 * 4-value feature vector per image, as the published feature-vector models give. Plain JSON and bytes (no tfjs), so Node can write it as files.
 */
export interface GraphModelFixture {
  /** The model.json of a converted graph model, its weights in one shard named `shard`. */
  modelJson: Record<string, unknown>;
  /** The shard's bytes: the kernel (float32) then the axes (int32). */
  weightData: Uint8Array;
  shard: string;
}

const float = { type: 'DT_FLOAT' };
const dims = (shape: number[]) => ({ dim: shape.map((size) => ({ size: String(size) })) });
const constant = (name: string, dtype: string, shape: number[]) => ({
  name,
  op: 'Const',
  attr: { dtype: { type: dtype }, value: { tensor: { dtype, tensorShape: dims(shape) } } },
});

/** The conv kernel's values: small, varied and fixed, so two builds give the same features. */
export const fixtureKernel = (): Float32Array =>
  Float32Array.from({ length: 3 * 3 * 3 * 4 }, (_, i) => Math.sin(i) * 0.05);

/**
 * Which graph: the feature vector (default) or the last feature map; a second input (not a backbone);
 * a residual block (the conv's map added to the Relu's, so the conv's map is read twice and lives on).
 */
export interface FixtureVariant {
  output?: 'vector' | 'map';
  inputs?: 1 | 2;
  block?: 'plain' | 'residual';
}

const placeholder = (name: string, size: number) => ({
  name,
  op: 'Placeholder',
  attr: { dtype: float, shape: { shape: dims([-1, size, size, 3]) } },
});

/** The GraphDef's nodes for images of `size`×`size`. */
function nodes(size: number, { output = 'vector', inputs = 1, block = 'plain' }: FixtureVariant) {
  const residual = { name: 'residual', op: 'AddV2', input: ['relu', 'conv'], attr: { T: float } };
  const mean = {
    name: 'features',
    op: 'Mean',
    input: [block === 'residual' ? 'residual' : 'relu', 'axes'],
    attr: { T: float, Tidx: { type: 'DT_INT32' }, keep_dims: { b: false } },
  };
  return [
    placeholder('images', size),
    ...(inputs > 1 ? [placeholder('extra', size)] : []),
    constant('kernel', 'DT_FLOAT', [3, 3, 3, 4]),
    // An unused constant would be a second output: the map variant has none (its shard still holds it).
    ...(output === 'vector' ? [constant('axes', 'DT_INT32', [2])] : []),
    {
      name: 'conv',
      op: 'Conv2D',
      input: ['images', 'kernel'],
      attr: {
        T: float,
        strides: { list: { i: ['1', '1', '1', '1'] } },
        dilations: { list: { i: ['1', '1', '1', '1'] } },
        padding: { s: btoa('SAME') },
        data_format: { s: btoa('NHWC') },
      },
    },
    { name: 'relu', op: 'Relu', input: ['conv'], attr: { T: float } },
    ...(block === 'residual' ? [residual] : []),
    ...(output === 'vector' ? [mean] : []),
  ];
}

/** The graph model for images of `size`×`size`. */
export function graphModelFixture(size: number, variant: FixtureVariant = {}): GraphModelFixture {
  const kernel = fixtureKernel();
  const weightData = new Uint8Array(kernel.byteLength + 8);
  weightData.set(new Uint8Array(kernel.buffer), 0);
  weightData.set(new Uint8Array(Int32Array.from([1, 2]).buffer), kernel.byteLength);
  const shard = 'group1-shard1of1.bin';
  return {
    modelJson: {
      format: 'graph-model',
      generatedBy: 'vram-lab graphModelFixture',
      convertedBy: 'hand-written GraphDef (the converter format)',
      modelTopology: { node: nodes(size, variant), library: {}, versions: { producer: 1 } },
      weightsManifest: [
        {
          paths: [shard],
          weights: [
            { name: 'kernel', shape: [3, 3, 3, 4], dtype: 'float32' },
            { name: 'axes', shape: [2], dtype: 'int32' },
          ],
        },
      ],
    },
    weightData,
    shard,
  };
}

/** The fixture as the artefacts tfjs reads from a dropped model.json and its shard (tf.io.fromMemory). */
export function fixtureArtifacts(fixture: GraphModelFixture): tf.io.ModelArtifacts {
  const manifest = fixture.modelJson['weightsManifest'] as tf.io.WeightsManifestConfig;
  return {
    format: 'graph-model',
    modelTopology: fixture.modelJson['modelTopology'] as tf.io.ModelArtifacts['modelTopology'],
    weightSpecs: manifest.flatMap((g) => g.weights),
    weightData: fixture.weightData.slice().buffer,
  };
}
