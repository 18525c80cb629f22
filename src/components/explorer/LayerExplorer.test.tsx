// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../core/model/modelSpec';
import { layer } from '../../core/model/testLayers';
import { resolveTrainable, trainableProblem } from '../../core/settings/trainable';
import type { TrainableSet } from '../../core/settings/trainConfig';
import { LayerExplorer } from './LayerExplorer';

/** A small EfficientNet-shaped model: a stem, two blocks of convolutions and BatchNorm, a dense head. */
const SPEC: ModelSpec = {
  name: 'Test net',
  height: 32,
  width: 32,
  backboneLayerCount: 7,
  layers: [
    layer({ name: 'input_layer', kind: 'input', outputShape: [32, 32, 3] }),
    layer({ name: 'stem_conv', kind: 'conv2d', outputShape: [16, 16, 8], trainableWeightSizes: [216] }),
    layer({
      name: 'block1a_dwconv',
      kind: 'depthwiseConv2d',
      outputShape: [16, 16, 8],
      trainableWeightSizes: [72],
    }),
    layer({
      name: 'block1a_bn',
      kind: 'batchNormalization',
      outputShape: [16, 16, 8],
      trainableWeightSizes: [8, 8],
      fixedWeightSizes: [8, 8],
    }),
    layer({
      name: 'block2a_expand_conv',
      kind: 'conv2d',
      outputShape: [8, 8, 16],
      trainableWeightSizes: [128],
    }),
    layer({
      name: 'block2a_project_conv',
      kind: 'conv2d',
      outputShape: [8, 8, 8],
      trainableWeightSizes: [128],
    }),
    layer({ name: 'top_conv', kind: 'conv2d', outputShape: [8, 8, 32], trainableWeightSizes: [256] }),
    layer({ name: 'head_dense', kind: 'dense', outputShape: [16], trainableWeightSizes: [512, 16] }),
    layer({ name: 'predictions', kind: 'dense', outputShape: [3], trainableWeightSizes: [48, 3] }),
  ],
};
const HEAD_PARAMS = 512 + 16 + 48 + 3;

/** The explorer as the layers panel holds it: the rule is the one setting, the set resolved from it. */
function Harness({ start, disabled = false }: { start: TrainableSet; disabled?: boolean }) {
  const [rule, setRule] = useState<TrainableSet>(start);
  return (
    <>
      <LayerExplorer
        spec={SPEC}
        trainable={resolveTrainable(SPEC, 'fine-tune', rule)}
        rule={rule}
        problem={trainableProblem(SPEC, rule)}
        onChange={setRule}
        disabled={disabled}
        backendLabel="webgpu"
      />
      <output data-testid="rule">{JSON.stringify(rule)}</output>
    </>
  );
}

const trainableParams = () => Number(screen.getByTestId('explorer-trainable-params').dataset.count);
const rule = () => JSON.parse(screen.getByTestId('rule').textContent ?? 'null') as TrainableSet;

afterEach(cleanup);

describe('the layer explorer', () => {
  it('counts what trains, and the shortcuts write the rule', async () => {
    const user = userEvent.setup();
    render(<Harness start={{ kind: 'head' }} />);
    expect(screen.getByTestId('explorer-rule').textContent).toContain('head only');
    expect(trainableParams()).toBe(HEAD_PARAMS);

    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(rule()).toEqual({ kind: 'all' });
    // Every learnable weight of the backbone and head; BatchNorm's moving statistics never train.
    expect(trainableParams()).toBe(216 + 72 + 16 + 128 + 128 + 256 + HEAD_PARAMS);
    expect(Number(screen.getByTestId('explorer-frozen-params').dataset.count)).toBe(16);

    const lastN = screen.getByLabelText('Backbone layers to unfreeze, from the end');
    await user.clear(lastN);
    await user.type(lastN, '2');
    await user.click(screen.getByRole('button', { name: 'Unfreeze last N layers' }));
    expect(rule()).toEqual({ kind: 'last', n: 2 });
    expect(trainableParams()).toBe(128 + 256 + HEAD_PARAMS);

    await user.selectOptions(screen.getByLabelText('First block to unfreeze'), 'block2a');
    await user.click(screen.getByRole('button', { name: 'Unfreeze from block' }));
    expect(rule()).toEqual({ kind: 'from-block', block: 'block2a' });
    expect(trainableParams()).toBe(128 + 128 + 256 + HEAD_PARAMS);
  });

  it('toggles a block and one layer from the keyboard, and the choice becomes a list of layers', async () => {
    const user = userEvent.setup();
    render(<Harness start={{ kind: 'head' }} />);
    const block = screen.getByRole('checkbox', { name: 'train block block2a' });
    block.focus();
    await user.keyboard(' ');
    expect(rule()).toMatchObject({ kind: 'layers' });
    expect(trainableParams()).toBe(128 + 128 + HEAD_PARAMS);

    // Right moves to the block's expand button, Right again opens it; Down reaches its first layer.
    await user.keyboard('{ArrowRight}');
    const expand = screen.getByRole('button', { name: /block2a/ });
    expect(document.activeElement).toBe(expand);
    await user.keyboard('{ArrowRight}');
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const row = screen.getByTestId('layer-row-block2a_expand_conv');
    await user.click(within(row).getByRole('checkbox', { name: 'train block2a_expand_conv' }));
    expect(trainableParams()).toBe(128 + HEAD_PARAMS);
    expect(screen.getByRole('checkbox', { name: 'train block block2a' })).toHaveProperty(
      'indeterminate',
      true,
    );
  });

  it('keeps the head training and locks every control while a run holds the engine', () => {
    render(<Harness start={{ kind: 'all' }} disabled />);
    const headBlock = screen.getByRole('checkbox', { name: 'train block head' });
    expect(headBlock).toHaveProperty('disabled', true);
    for (const name of ['All', 'Head only', 'Unfreeze from block'])
      expect(screen.getByRole('button', { name })).toHaveProperty('disabled', true);
    expect(screen.getByRole('checkbox', { name: 'train block block1a' })).toHaveProperty('disabled', true);
  });

  it('names a rule that does not fit the model', () => {
    render(<Harness start={{ kind: 'from-block', block: 'block9a' }} />);
    expect(screen.getByRole('alert').textContent).toMatch(/block9a/);
  });
});
