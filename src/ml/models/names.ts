const BLOCK = /^(block\d+[a-z]|block_\d+|expanded_conv)_/;
const STEM = /^(stem_(conv_pad|conv|bn|activation)|Conv1|bn_Conv1|Conv1_relu)$/;
const TOP = /^(top_(conv|bn|activation)|Conv_1|Conv_1_bn|out_relu)$/;
const PREPROCESSING = /^(rescaling|normalization)(_\d+)?$/;
const HEAD = /^(avg_pool|max_pool|top_dropout|predictions|global_average_pooling2d|head_.+)$/;

/**
 * The block a layer belongs to, from its Keras name: 'input', 'preprocessing', 'stem', a block such as
 * 'block3b' (EfficientNet) or 'block_5' / 'expanded_conv' (MobileNetV2), 'top' (the last conv), 'head' (the
 * classifier), or 'other' for names no keras.applications model uses.
 */
export function layerBlock(name: string): string {
  const block = BLOCK.exec(name)?.[1];
  if (block !== undefined) return block;
  if (name === 'input_layer' || /^input_\d+$/.test(name)) return 'input';
  if (PREPROCESSING.test(name)) return 'preprocessing';
  if (STEM.test(name)) return 'stem';
  if (TOP.test(name)) return 'top';
  if (HEAD.test(name)) return 'head';
  return 'other';
}

export interface BlockGroup {
  block: string;
  /** Layer names in model order. */
  layers: string[];
}

/** Layer names grouped by block, blocks in the order they first appear. */
export function groupByBlock(names: readonly string[]): BlockGroup[] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const block = layerBlock(name);
    const group = groups.get(block);
    if (group) group.push(name);
    else groups.set(block, [name]);
  }
  return [...groups].map(([block, layers]) => ({ block, layers }));
}

/**
 * A weight's name as Keras writes it in `.h5` weight files, e.g. 'block3b_project_conv/kernel:0'. tfjs'
 * `LayerVariable.name` gets a '_1' suffix when a model with the same layer names was built before in the
 * process; `originalName` ('<layer>/<weight>') does not, so names are matched on it.
 */
export function kerasWeightName(weight: { originalName: string }): string {
  return `${weight.originalName}:0`;
}
