// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scanFiles } from '../../core/data/scan';
import { initialState } from '../../store/initial';
import { labStore } from '../../store/store';
import { SettingsPanel } from '../settings/SettingsPanel';
import { SettingsProblems } from '../settings/SettingsProblems';
import { PanelBoundary } from './PanelBoundary';

beforeEach(() => {
  labStore.setState(initialState(), true);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

let broken = true;
function Fragile() {
  if (broken) throw new RangeError('the chart has no finite axis');
  return <p>drawn again</p>;
}

describe('a panel that fails to draw', () => {
  it('says which panel failed and why, leaves the others drawn, and draws again on Reset', async () => {
    const user = userEvent.setup();
    broken = true;
    render(
      <>
        <PanelBoundary name="The sweep">
          <Fragile />
        </PanelBoundary>
        <PanelBoundary name="The planner">
          <p>planner drawn</p>
        </PanelBoundary>
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The sweep failed');
    expect(alert.textContent).toContain('RangeError: the chart has no finite axis');
    expect(screen.getByText('planner drawn')).toBeTruthy();
    expect(screen.getByText('The report').closest('details')!.textContent).toContain(
      'VRAM Lab: The sweep failed',
    );

    await user.click(screen.getByRole('button', { name: 'Reset this panel' }));
    expect(screen.getByRole('alert').textContent).toContain('The sweep failed');
    broken = false;
    await user.click(screen.getByRole('button', { name: 'Reset this panel' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('drawn again')).toBeTruthy();
  });

  it('copies the report, or says to copy it by hand when the clipboard is refused', async () => {
    const user = userEvent.setup();
    broken = true;
    render(
      <PanelBoundary name="The sweep">
        <Fragile />
      </PanelBoundary>,
    );
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy the error' }));
    expect(writeText.mock.calls[0]![0]).toMatch(
      /^VRAM Lab: The sweep failed\nRangeError: the chart has no finite axis/,
    );
    expect(await screen.findByText(/refused the clipboard/)).toBeTruthy();
  });
});

describe('clearing the seed with data loaded', () => {
  it('keeps the split panel drawn and lists the seed as a problem (it blanked the page)', async () => {
    const user = userEvent.setup();
    const scan = scanFiles(
      ['a', 'b'].flatMap((c) => [1, 2, 3, 4].map((i) => ({ path: `shapes/${c}/${i}.png` }))),
    );
    labStore.setState((s) => ({ ...s, dataset: { ...s.dataset, status: 'ready', name: 'shapes', scan } }));
    render(
      <>
        <SettingsProblems />
        <PanelBoundary name="Augmentation and split">
          <SettingsPanel part="data" />
        </PanelBoundary>
      </>,
    );
    expect(screen.getByText(/train \/ \d+ validation images/)).toBeTruthy();
    const seed = screen.getByRole('spinbutton', { name: 'Seed' });
    await user.clear(seed);
    expect(screen.queryByTestId('panel-failed')).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Seed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/seed/i);
    await user.type(seed, '7');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(/train \/ \d+ validation images/)).toBeTruthy();
  });
});
