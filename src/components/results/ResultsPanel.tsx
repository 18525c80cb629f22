import { useState } from 'react';
import { useLab } from '../ui/useLab';
import { DiagnosticsView } from './DiagnosticsView';
import { KerasScriptExport } from './KerasScriptExport';
import { MeasurementExports } from './MeasurementExports';
import { ModelExports } from './ModelExports';
import './Results.css';

const EMPTY: readonly string[] = [];

/** What a run leaves: diagnostics per phase on the validation split, and everything to take away. */
export function ResultsPanel() {
  const reports = useLab((s) => s.run.diagnostics);
  const classes = useLab((s) => s.dataset.scan?.classes);
  const classNames = classes ? classes.map((c) => c.name) : EMPTY;
  const [chosen, setChosen] = useState<number | null>(null);
  const index = chosen !== null && chosen < reports.length ? chosen : reports.length - 1;
  const report = reports[index];
  return (
    <section className="panel results" aria-labelledby="results-title">
      <h2 id="results-title">Results and exports</h2>
      {reports.length > 1 && (
        <div role="group" aria-label="Diagnostics of phase" className="buttons">
          {reports.map((r, i) => (
            <button key={i} type="button" aria-pressed={i === index} onClick={() => setChosen(i)}>
              After {r.phase}
            </button>
          ))}
        </div>
      )}
      {report ? (
        <DiagnosticsView key={index} report={report} classNames={classNames} />
      ) : (
        <p className="muted">Diagnostics appear here after each training phase.</p>
      )}
      <ModelExports />
      <MeasurementExports />
      <KerasScriptExport />
    </section>
  );
}
