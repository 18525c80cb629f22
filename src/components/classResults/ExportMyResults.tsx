import { useId, useState } from 'react';
import { resultsFile } from '../../core/workshop/classResults';
import { plannedPeaks } from '../../store/historySelectors';
import { selectPlannerKey } from '../../store/selectors';
import { labStore } from '../../store/store';
import type { LabState } from '../../store/types';
import { saveFile } from '../results/download';
import { errorMessage } from '../../core/format';

const NAME_KEY = 'vram-lab-participant';

/** The planner's tfjs peak per phase for the settings on screen, when the model is described for them. */
function plannedNow(s: LabState) {
  if (!s.planner.spec || s.planner.key !== selectPlannerKey(s)) return [];
  return plannedPeaks(s.planner.spec, s.config);
}

/** The adapter in words, as the run history writes it. */
function adapterOf(s: LabState): string | null {
  const a = s.engine.backend?.adapter;
  return a ? [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') : null;
}

/**
 * "Export my results": one file with the participant's name, backend, the settings on screen with their
 * guess and the planner's prediction, and every run kept in this browser, for the instructor's class table.
 */
export function ExportMyResults() {
  const id = useId();
  const [name, setName] = useState(() => localStorage.getItem(NAME_KEY) ?? '');
  const [status, setStatus] = useState<string | null>(null);
  const exportFile = () => {
    const s = labStore.getState();
    try {
      const file = resultsFile({
        name,
        exportedAt: new Date(),
        backend: s.engine.backend?.name ?? null,
        adapter: adapterOf(s),
        settings: s.config,
        guess: s.workshop.guess,
        predicted: plannedNow(s),
        runs: s.history.entries,
      });
      const stem = file.name.replace(/[^\w-]+/g, '-').toLowerCase();
      saveFile(`vram-lab-results-${stem}.json`, JSON.stringify(file, null, 2), 'application/json');
      setStatus(`Exported ${file.runs.length} runs and the current settings for ${file.name}.`);
    } catch (err) {
      setStatus(`Not exported: ${errorMessage(err)}`);
    }
  };
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        exportFile();
      }}
    >
      <label htmlFor={`${id}-name`}>Your name</label>
      <input
        id={`${id}-name`}
        value={name}
        required
        onChange={(e) => {
          setName(e.target.value);
          localStorage.setItem(NAME_KEY, e.target.value);
        }}
        data-testid="results-name"
      />
      <button type="submit" disabled={!name.trim()} data-testid="results-export">
        Export my results
      </button>
      {status && <span role="status">{status}</span>}
    </form>
  );
}
