import * as tf from '@tensorflow/tfjs';
import { MobileNetV2Model } from 'nsfwjs/models/mobilenet_v2';
import { KerasBatchNormalization } from '../models/layers';
import { WeightLoadError } from './errors';
import type { WeightReport } from './report';
import { sourceFromArtifacts, type WeightSource } from './source';
import { buildFromTopology, checkArtifacts, type TfjsArtifacts } from './tfjs';

/** Where the offline default comes from, as data the UI and README can show. */
/** Pixels in [0, 1], as nsfwjs feeds its MobileNetV2 (Keras' MobileNetV2 would map them to [-1, 1]). */
export const NSFWJS_INPUT_SCALE = { scale: 1 / 255, offset: 0 };

export const NSFWJS_MOBILENET_V2 = {
  /** npm package that ships the model inside its JavaScript modules (no download at run time). */
  package: 'nsfwjs',
  /** The version package.json pins and the tests check. */
  version: '4.4.0',
  licence: 'MIT',
  copyright: 'Copyright (c) 2019 Infinite Red, Inc.',
  homepage: 'https://github.com/infinitered/nsfwjs',
  /** What the model is. */
  model:
    'MobileNetV2 (alpha 1.0, Keras layer names) trained in Keras 2.2.4 by the nsfwjs authors to sort images into 5 classes',
  /** How its weights are stored. */
  weights: 'uint8-quantised in the package, dequantised to float32 on load',
  /** How it was trained, as its saved topology records it. */
  training:
    'its saved topology marks the layers before block_11 as frozen and the rest as trainable: the nsfwjs authors fine-tuned block_11 onwards on their data',
  /** What the lab removed. */
  removed:
    'its classification head (average_pooling2d_1, flatten_1, dense_1, dropout_2, dense_2, dropout_3, dense_3); the backbone ends at out_relu',
  /** What the lab added. */
  added:
    "a Rescaling layer ('rescaling', ×1/255): nsfwjs feeds pixels in [0, 1], the lab's pipeline gives [0, 255]",
} as const;

const LABEL = 'nsfwjs MobileNetV2';
const LAST_BACKBONE_LAYER = 'out_relu';
const INPUT_SCALE = 1 / 255;

type Json = Record<string, unknown>;
interface LayerJson {
  class_name: string;
  name: string;
  config: Json & { name: string };
  inbound_nodes: unknown[];
}

function base64Bytes(base64: string): ArrayBuffer {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

let artifacts: Promise<TfjsArtifacts> | undefined;

/**
 * nsfwjs' MobileNetV2, checked like any tfjs model. nsfwjs ships model.json and its shard as JavaScript
 * modules (the shard base64-encoded), so they are bundled by Vite as lazy chunks and read in Node as is.
 */
export async function nsfwjsArtifacts(): Promise<TfjsArtifacts> {
  artifacts ??= (async () => {
    const json: unknown = ((await MobileNetV2Model.modelJson()) as { default: unknown }).default;
    const shards = await Promise.all(
      MobileNetV2Model.weightBundles.map(async (bundle) => {
        const base64: unknown = ((await bundle()) as { default: unknown }).default;
        if (typeof base64 !== 'string')
          throw new WeightLoadError('corrupt', LABEL, `${LABEL}: a shard is not base64 text`);
        return base64Bytes(base64);
      }),
    );
    return checkArtifacts(json, LABEL, shards);
  })();
  return artifacts;
}

function layersOf(topology: Json): LayerJson[] {
  const config = (topology['model_config'] as Json | undefined)?.['config'] as Json | undefined;
  const layers = config?.['layers'];
  if (!Array.isArray(layers)) throw new WeightLoadError('bad-model-json', LABEL, `${LABEL}: no layer list`);
  return layers as LayerJson[];
}

/** Names of the layers after `out_relu`: nsfwjs' own head. */
function headLayerNames(topology: Json): string[] {
  const layers = layersOf(topology);
  const last = layers.findIndex((l) => l.config.name === LAST_BACKBONE_LAYER);
  return layers.slice(last + 1).map((l) => l.config.name);
}

/** The backbone weights (nsfwjs' head removed), to copy by name onto the lab's Keras-named MobileNetV2. */
export async function nsfwjsBackboneWeights(): Promise<WeightSource> {
  const { artifacts: a } = await nsfwjsArtifacts();
  const all = sourceFromArtifacts(a.weightSpecs ?? [], a.weightData ?? [], LABEL);
  const head = new Set(headLayerNames(a.modelTopology as Json));
  return { label: LABEL, layers: all.layers.filter((l) => !head.has(l.name)) };
}

/**
 * nsfwjs' own topology re-targeted: any input size, head removed, a ×1/255 Rescaling in front, Keras 2/3
 * BatchNormalization semantics (frozen means inference mode) and every layer trainable, as a freshly built
 * keras.applications model is.
 */
function backboneTopology(topology: Json, height: number, width: number): Json {
  const layers = structuredClone(layersOf(topology));
  const input = layers[0];
  if (input?.class_name !== 'InputLayer')
    throw new WeightLoadError('bad-model-json', LABEL, `${LABEL}: no input layer`);
  input.config['batch_input_shape'] = [null, height, width, 3];
  const inputName = input.config.name;
  const head = new Set(headLayerNames(topology));
  const backbone = layers.filter((l) => !head.has(l.config.name));
  for (const layer of backbone) {
    layer.config['trainable'] = true;
    if (layer.class_name === 'BatchNormalization') layer.class_name = KerasBatchNormalization.className;
    layer.inbound_nodes = JSON.parse(
      JSON.stringify(layer.inbound_nodes).replaceAll(`["${inputName}",`, '["rescaling",'),
    ) as unknown[];
  }
  const rescaling: LayerJson = {
    name: 'rescaling',
    class_name: 'Rescaling',
    config: { name: 'rescaling', trainable: true, scale: INPUT_SCALE, offset: 0 },
    inbound_nodes: [[[inputName, 0, 0, {}]]],
  };
  const modelConfig = topology['model_config'] as Json;
  return {
    ...topology,
    model_config: {
      ...modelConfig,
      config: {
        ...(modelConfig['config'] as Json),
        name: 'nsfwjs_mobilenetv2_backbone',
        layers: [input, rescaling, ...backbone.slice(1)],
        output_layers: [[LAST_BACKBONE_LAYER, 0, 0]],
      },
    },
  };
}

export interface NsfwjsBackboneOptions {
  /** Input height in pixels (32 or more). */
  height: number;
  /** Input width in pixels (32 or more). */
  width: number;
}

/**
 * The offline pretrained default: nsfwjs' MobileNetV2 backbone at any input size, taking pixels in [0, 255]
 * and giving `out_relu` features (1280 channels, 1/32 of the input size). No network access.
 */
export async function loadNsfwjsBackbone(
  opts: NsfwjsBackboneOptions,
): Promise<{ model: tf.LayersModel; report: WeightReport }> {
  const { artifacts: a } = await nsfwjsArtifacts();
  const topology = backboneTopology(a.modelTopology as Json, opts.height, opts.width);
  return buildFromTopology(topology, await nsfwjsBackboneWeights());
}
