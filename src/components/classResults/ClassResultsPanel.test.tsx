// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../core/run/history';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { resultsFile } from '../../core/workshop/classResults';
import { keptRun } from '../../store/historyFixture';
import { ClassResultsPanel } from './ClassResultsPanel';

const run = (batchSize: number, peakBytes: number): HistoryEntry =>
  keptRun(
    { ...DEFAULT_TRAIN_CONFIG, batchSize },
    { measured: [{ phase: 'frozen', peakBytes }], backend: 'webgpu' },
  );

/** A results file as "Export my results" writes it: no plan on screen, the given runs. */
function exported(name: string, runs: HistoryEntry[]): File {
  const file = resultsFile({
    name,
    exportedAt: new Date(0),
    backend: 'webgpu',
    adapter: null,
    settings: DEFAULT_TRAIN_CONFIG,
    guess: null,
    predicted: [],
    runs,
  });
  return new File([JSON.stringify(file)], `${name}.json`, { type: 'application/json' });
}

/** The participant names down the table, and each row's measured peak. */
const column = (index: number) =>
  screen.getAllByTestId('class-results-row').map((tr) => within(tr).getAllByRole('cell')[index]!.textContent);

afterEach(cleanup);

describe('the class table', () => {
  it('merges the chosen files into one table, sorts by a column from the keyboard, and names a broken file', async () => {
    const user = userEvent.setup();
    render(<ClassResultsPanel />);
    const input = screen.getByLabelText(/drop the participants' results files here/);
    await user.upload(input, [
      exported('Bea', [run(16, 30e6)]),
      exported('Ann', [run(8, 50e6)]),
      new File(['{ not json'], 'broken.json', { type: 'application/json' }),
    ]);
    expect(await screen.findByText('2 participants: Bea, Ann.')).toBeTruthy();
    expect(within(screen.getByRole('alert')).getByText('broken.json')).toBeTruthy();
    // One row for each participant's settings on screen, one per run, in the order the files came.
    expect(column(0)).toEqual(['Bea', 'Bea', 'Ann', 'Ann']);

    const measured = screen.getByRole('button', { name: 'measured peak' });
    measured.focus();
    await user.keyboard('{Enter}');
    expect(measured.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    // Rows without a measurement (the plans) go last either way.
    expect(column(5).slice(0, 2)).toEqual(['30.0 MB', '50.0 MB']);
    await user.keyboard('{Enter}');
    expect(measured.closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(column(5).slice(0, 2)).toEqual(['50.0 MB', '30.0 MB']);
    expect(column(0).slice(0, 2)).toEqual(['Ann', 'Bea']);
  });

  it("replaces a participant's file dropped again, and clears the table", async () => {
    const user = userEvent.setup();
    render(<ClassResultsPanel />);
    const input = screen.getByLabelText(/drop the participants' results files here/);
    await user.upload(input, exported('Bea', [run(16, 30e6)]));
    await screen.findByText('1 participants: Bea.');
    await user.upload(input, exported('Bea', [run(16, 30e6), run(32, 60e6)]));
    await screen.findByText(/60.0 MB/);
    expect(column(0)).toEqual(['Bea', 'Bea', 'Bea']);
    await user.click(screen.getByRole('button', { name: 'Clear the table' }));
    expect(screen.queryByRole('table')).toBeNull();
  });
});
