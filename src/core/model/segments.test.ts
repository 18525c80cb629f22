import { describe, expect, it } from 'vitest';
import { cutSegments } from './segments';

/** A graph as plain data: each node's inputs, named like the Keras layer that computes it. */
const graph = (inputs: Record<string, string[]>, output: string) => ({
  output,
  inputs: (node: string) => inputs[node] ?? [],
  layer: (node: string) => node,
});

describe('cutSegments', () => {
  it('cuts at block boundaries, keeping a residual inside its block', () => {
    const g = graph(
      {
        input_layer: [],
        stem_conv: ['input_layer'],
        block1a_conv: ['stem_conv'],
        block1a_add: ['block1a_conv', 'stem_conv'],
        block2a_conv: ['block1a_add'],
        block2a_bn: ['block2a_conv'],
        top_conv: ['block2a_bn'],
      },
      'top_conv',
    );
    expect(cutSegments(g)).toEqual([
      { name: 'stem', input: 'input_layer', steps: ['stem_conv'] },
      { name: 'block1a', input: 'stem_conv', steps: ['block1a_conv', 'block1a_add'] },
      { name: 'block2a', input: 'block1a_add', steps: ['block2a_conv', 'block2a_bn'] },
      { name: 'top', input: 'block2a_bn', steps: ['top_conv'] },
    ]);
  });

  it('never cuts where two tensors are live, even at a new block name', () => {
    // block_2_add reads block_1_a, so before block_2_a two tensors are live: no cut there.
    const g = graph(
      {
        input: [],
        block_1_a: ['input'],
        block_1_b: ['block_1_a'],
        block_2_a: ['block_1_b'],
        block_2_add: ['block_2_a', 'block_1_a'],
      },
      'block_2_add',
    );
    expect(cutSegments(g).map((s) => [s.name, s.steps])).toEqual([
      ['block_1', ['block_1_a', 'block_1_b', 'block_2_a', 'block_2_add']],
    ]);
  });
});
