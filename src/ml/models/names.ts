import { layerBlock } from '../../core/model/layerTable';

export { layerBlock };

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
