import { useState } from 'react';
import { historyCsv } from '../../core/run/history';
import { HistoryCompare } from './HistoryCompare';
import { HistoryTable } from './HistoryTable';
import { runHistory } from '../../store/commands';
import { useLab } from '../ui/useLab';

/** Offers `text` as a file download. */
function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * Every run of this browser, kept in IndexedDB (the store's history slice): its settings and what changed from the run before, the
 * predicted and measured peaks, how it ended, its step time, accuracy and backend. Survives a reload;
 * two rows can be compared; rows can be deleted; the table exports as JSON or CSV.
 */
export function HistoryPanel() {
  const entries = useLab((s) => s.history.entries);
  const error = useLab((s) => s.history.error);
  const [picked, setPicked] = useState<number[]>([]);
  const removeRow = (id: number) => {
    setPicked((p) => p.filter((x) => x !== id));
    void runHistory().remove(id);
  };
  const pick = (id: number) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const compared = picked.flatMap((id) => entries.find((e) => e.id === id) ?? []);

  return (
    <section className="panel" aria-labelledby="history-title" data-testid="history">
      <h2 id="history-title">Run history</h2>
      {error && <p role="alert">{error}</p>}
      {entries.length === 0 ? (
        <p className="hint">
          Every run you train is kept here, in this browser, with what changed from the one before.
        </p>
      ) : (
        <>
          <div className="row">
            <button
              type="button"
              data-testid="history-json"
              onClick={() =>
                download('vram-lab-history.json', 'application/json', JSON.stringify(entries, null, 2))
              }
            >
              Export JSON
            </button>
            <button
              type="button"
              data-testid="history-csv"
              onClick={() => download('vram-lab-history.csv', 'text/csv', historyCsv(entries))}
            >
              Export CSV
            </button>
            <span className="hint">Tick two rows to compare them.</span>
          </div>
          <HistoryTable entries={entries} picked={picked} onPick={pick} onDelete={removeRow} />
          {compared.length === 2 && <HistoryCompare a={compared[0]!} b={compared[1]!} />}
        </>
      )}
    </section>
  );
}
