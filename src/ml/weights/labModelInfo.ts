// What a tfjs model.json says about the lab classifier it describes, read from the topology alone (no
// tfjs, so the page can read it before the worker builds anything).
import { isModelId, type ModelId } from '../../core/model/models';
import { WeightLoadError } from './errors';

/** The lab settings a saved classifier needs: its architecture, input size and number of classes. */
export interface LabModelInfo {
  model: ModelId;
  height: number;
  width: number;
  numClasses: number;
  /** The model's own name, e.g. 'efficientnet-tiny_classifier'. */ modelName: string;
  /**
   * How its preprocessing was built (ml/models registry options), so a reload can build the same: Keras'
   * imagenet layout (EfficientNet's extra 'rescaling_1'), and MobileNetV2's pixel scale (null: Keras').
   */
  preprocessing: { imagenetLayout: boolean; inputScale: { scale: number; offset: number } | null };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The suffix buildClassifier gives every lab model (ml/models/registry). */
const CLASSIFIER_SUFFIX = '_classifier';

/**
 * The lab's id for a Keras model name, as ml/models names them: 'efficientnet-tiny', 'efficientnetb3',
 * 'efficientnetv2-s', 'mobilenetv2_1.00_224' (the rows are the input height). Null for any other name.
 */
export function modelIdOfName(kerasName: string): ModelId | null {
  if (kerasName === 'efficientnet-tiny') return 'tiny';
  if (/^mobilenetv2_1\.00_\d+$/.test(kerasName)) return 'mobilenetv2';
  const v1 = /^efficientnet(b[0-7])$/.exec(kerasName);
  const v2 = /^efficientnetv2-(b[0-3]|s|m|l)$/.exec(kerasName);
  const id = v1 ? v1[1]! : v2 ? `v2-${v2[1]!}` : '';
  return isModelId(id) ? id : null;
}

interface TopologyLayer {
  name: string;
  className: string;
  config: Json;
}

function layersOf(config: Json): TopologyLayer[] {
  const layers = Array.isArray(config['layers']) ? config['layers'] : [];
  return layers.filter(isObject).map((l) => ({
    name: typeof l['name'] === 'string' ? l['name'] : '',
    className: typeof l['class_name'] === 'string' ? l['class_name'] : '',
    config: isObject(l['config']) ? l['config'] : {},
  }));
}

/** The one [null, height, width, 3] input of the model, or a message saying what it is instead. */
function inputSize(layers: TopologyLayer[]): { height: number; width: number } | string {
  const inputs = layers.filter((l) => l.className === 'InputLayer');
  const shape = inputs[0]?.config['batch_input_shape'] ?? inputs[0]?.config['batchInputShape'];
  if (inputs.length !== 1 || !Array.isArray(shape)) return 'it does not have exactly one image input';
  const [, height, width, channels] = shape as unknown[];
  const size = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;
  if (shape.length !== 4 || !size(height) || !size(width) || channels !== 3)
    return `its input is ${JSON.stringify(shape)}, not [batch, height, width, 3]`;
  return { height, width };
}

/** The classes of the model's softmax output layer, or a message saying what the output is instead. */
function classCount(config: Json, layers: TopologyLayer[]): number | string {
  const outputs = Array.isArray(config['output_layers']) ? config['output_layers'] : [];
  const name: unknown = Array.isArray(outputs[0]) ? outputs[0][0] : undefined;
  const output = layers.find((l) => l.name === name);
  const units = output?.config['units'];
  if (outputs.length !== 1 || output?.className !== 'Dense' || !Number.isInteger(units))
    return 'its output is not one Dense classification layer';
  if (output.config['activation'] !== 'softmax') return `its output layer '${output.name}' is not a softmax`;
  return units as number;
}

/** Keras' MobileNetV2 preprocess_input as the lab's Rescaling has it: pixels to [-1, 1]. */
const KERAS_MOBILENET_SCALE = { scale: 1 / 127.5, offset: -1 };

function preprocessingOf(id: ModelId, layers: TopologyLayer[]): LabModelInfo['preprocessing'] {
  const imagenetLayout = layers.some((l) => l.name === 'rescaling_1');
  const rescaling = layers.find((l) => l.name === 'rescaling' && l.className === 'Rescaling')?.config;
  const scale = rescaling?.['scale'];
  const offset = rescaling?.['offset'];
  const own =
    id === 'mobilenetv2' &&
    typeof scale === 'number' &&
    typeof offset === 'number' &&
    (Math.abs(scale - KERAS_MOBILENET_SCALE.scale) > 1e-9 || offset !== KERAS_MOBILENET_SCALE.offset);
  return { imagenetLayout, inputScale: own ? { scale, offset } : null };
}

/**
 * The lab settings of the classifier `modelJson` (a parsed tfjs model.json) describes. Throws a
 * WeightLoadError naming `label` and the reason when it is not a classifier the lab builds.
 */
export function labModelInfo(modelJson: unknown, label: string): LabModelInfo {
  const refuse = (why: string) =>
    new WeightLoadError('unrecognised-files', label, `${label} is not a VRAM Lab model: ${why}.`);
  const topology = isObject(modelJson) ? modelJson['modelTopology'] : undefined;
  const root = isObject(topology) && isObject(topology['model_config']) ? topology['model_config'] : topology;
  const config = isObject(root) && isObject(root['config']) ? root['config'] : null;
  if (!config) throw refuse('model.json has no Keras model topology');
  const modelName = typeof config['name'] === 'string' ? config['name'] : '';
  const id = modelName.endsWith(CLASSIFIER_SUFFIX)
    ? modelIdOfName(modelName.slice(0, -CLASSIFIER_SUFFIX.length))
    : null;
  if (!id) throw refuse(`its model is named '${modelName}', not one of the lab's classifiers`);
  const layers = layersOf(config);
  const size = inputSize(layers);
  if (typeof size === 'string') throw refuse(size);
  const numClasses = classCount(config, layers);
  if (typeof numClasses === 'string') throw refuse(numClasses);
  return { model: id, ...size, numClasses, modelName, preprocessing: preprocessingOf(id, layers) };
}
