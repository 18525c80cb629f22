// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OomDetails } from '../../core/memory/oom';
import type { Remedy } from '../../core/oom/remedies';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { provideCommands, type LabCommands } from '../../store/commands';
import { initialState } from '../../store/initial';
import { labStore } from '../../store/store';
import { OomPanel } from './OomPanel';

const oom: OomDetails = {
  kind: 'budget',
  shape: [32, 64, 64, 96],
  dtype: 'float32',
  bytesRequested: 50_331_648,
  bytesInUse: 180e6,
  limit: 200e6,
  layer: 'block2a_expand_conv',
  layerClass: 'Conv2D',
  op: 'Conv2D',
  phase: 'forward',
  backend: 'webgpu',
  cause: null,
};

/** The fixes the panel asked the engine to apply, in order. */
let applied: Remedy[] = [];

function ranOutOfMemory(): void {
  const s = initialState();
  const config = { ...DEFAULT_TRAIN_CONFIG, batchSize: 32, budgetBytes: 200e6 };
  labStore.setState({ ...s, config, run: { ...s.run, status: 'oom', config, oom, backend: 'webgpu' } }, true);
}

beforeEach(() => {
  applied = [];
  provideCommands({
    applyRemedy: async (remedy: Remedy) => {
      applied.push(remedy);
    },
  } as unknown as LabCommands);
  labStore.setState(initialState(), true);
});
afterEach(cleanup);

describe('the OOM panel', () => {
  it('shows nothing while no run has run out of memory', () => {
    render(<OomPanel />);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it("shows TensorFlow's message, where it failed with the measured numbers, and applies a chosen fix", async () => {
    const user = userEvent.setup();
    ranOutOfMemory();
    render(<OomPanel />);
    const panel = screen.getByRole('region', { name: 'Out of memory: ResourceExhaustedError' });
    // The panel comes to the participant: its view is shown and it takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(panel));
    expect(labStore.getState().nav.view).toBe('train');
    expect(within(panel).getByTestId('oom-message').textContent).toMatch(
      /^OOM when allocating tensor with shape\[32,64,64,96\] and type float32 on webgpu/,
    );
    const term = (name: string) => within(panel).getByText(name).nextElementSibling?.textContent;
    expect(term('Where')).toBe('block2a_expand_conv (Conv2D) · forward');
    expect(term('In use before it')).toBe('180 MB measured · webgpu');
    expect(term('Limit')).toBe('200 MB your simulated card');
    const fixes = within(within(panel).getByRole('list')).getAllByRole('button');
    expect(fixes.length).toBeGreaterThan(1);
    // Without the model described the fixes are offered unranked, each saying the planner has no number yet.
    expect(within(panel).getAllByText(/not predicted yet/).length).toBe(fixes.length);
    const halve = within(panel).getByRole('button', { name: 'Halve the batch: 32 → 16' });
    halve.focus();
    await user.keyboard('{Enter}');
    expect(applied.map((r) => r.patch.batchSize)).toEqual([16]);
  });
});
