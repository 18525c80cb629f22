/**
 * Gradient checkpointing's segments, cut from a model's graph given as plain data: the one rule that
 * the planner (by layer names) and the trainer (ml/train/segments.ts, by symbolic tensors) both use.
 */

/** Keras block prefixes where checkpointing may cut: EfficientNet 'block2a_', MobileNetV2 'block_2_', ResNet 'conv2_block1_'. */
export const SEGMENT_PREFIX = /^(block\d+[a-z]+|block_\d+|conv\d+_block\d+)_/;

/** A model's graph as the cutting reads it; a node is a tensor (or a single-output layer). */
export interface SegmentGraph<K> {
  /** The model's only output. */
  output: K;
  /** The nodes a node is computed from, in order. */
  inputs: (node: K) => readonly K[];
  /** Name of the layer that computes a node, whose Keras block prefix names the segment. */
  layer: (node: K) => string;
}

/** A run of nodes with one node flowing in and one flowing out, so it can be run again from its input alone. */
export interface CutSegment<K> {
  /** The block it covers, e.g. 'stem', 'block2a' or 'top'. */
  name: string;
  /** The model's input or the previous segment's last node. */
  input: K;
  /** Nodes to compute, inputs before the nodes that use them; the last is the segment's output. */
  steps: K[];
}

/** Every node reachable from the output, inputs first (an iterative post-order: deep models would overflow recursion). */
function topologicalOrder<K>(graph: SegmentGraph<K>): K[] {
  const order: K[] = [];
  const done = new Set<K>();
  const stack: { node: K; expanded: boolean }[] = [{ node: graph.output, expanded: false }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (done.has(top.node)) continue;
    if (top.expanded) {
      done.add(top.node);
      order.push(top.node);
      continue;
    }
    stack.push({ node: top.node, expanded: true });
    for (const input of [...graph.inputs(top.node)].reverse()) stack.push({ node: input, expanded: false });
  }
  return order;
}

/**
 * Cuts the graph into segments at block boundaries (Keras layer-name prefixes), walking it inputs first
 * from the model's input (the first node, in no segment). A cut is only made where a single node is
 * live, so residual connections stay inside a segment; nodes before the first block form 'stem' and
 * those after the last 'top'. A graph without block names is one segment.
 */
export function cutSegments<K>(graph: SegmentGraph<K>): CutSegment<K>[] {
  const order = topologicalOrder(graph);
  const position = new Map(order.map((node, i) => [node, i]));
  const lastUse = order.map(() => -1);
  order.forEach((node, i) => {
    for (const input of graph.inputs(node)) lastUse[position.get(input)!] = i;
  });
  const keyOf = (node: K, previous: string): string =>
    SEGMENT_PREFIX.exec(graph.layer(node))?.[1] ?? (previous === 'stem' ? 'stem' : 'top');

  const segments: CutSegment<K>[] = [];
  let current: CutSegment<K> = { name: 'stem', input: order[0]!, steps: [] };
  let live = lastUse[0]! > 0 ? 1 : 0;
  for (let i = 1; i < order.length; i++) {
    const node = order[i]!;
    const key = keyOf(node, current.name);
    // A valid cut before this node: the only live node is the one just computed.
    const cutHere = live === 1 && lastUse[i - 1]! >= i && current.steps.length > 0;
    if (cutHere && key !== current.name) {
      segments.push(current);
      current = { name: key, input: order[i - 1]!, steps: [] };
    } else if (current.steps.length === 0) {
      current.name = key;
    }
    current.steps.push(node);
    if (lastUse[i]! > i) live++;
    for (const used of new Set(graph.inputs(node).map((x) => position.get(x)!)))
      if (lastUse[used] === i) live--;
  }
  segments.push(current);
  return segments;
}
