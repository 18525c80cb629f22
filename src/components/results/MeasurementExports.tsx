import { useState } from 'react';
import {
  epochsCsv,
  measurementsJson,
  memoryCsv,
  predictions,
  stepsCsv,
  sweepCsv,
} from '../../core/export/measurements';
import { labStore } from '../../store/store';
import type { LabState } from '../../store/types';
import { chartPng, pageCharts } from './chartPng';
import { saveFile } from './download';

const CSV = 'text/csv';

/** The planner's predictions for the settings, when the described model matches them. */
function currentPredictions(s: LabState) {
  const spec = s.planner.spec;
  return spec && spec.height === s.config.height && spec.width === s.config.width
    ? predictions(spec, s.config)
    : [];
}

/** Each file reads the store when clicked, so a long run's data is never copied on every render. */
const FILES: { label: string; save: (s: LabState) => void }[] = [
  {
    label: 'Everything (JSON)',
    save: (s) =>
      saveFile(
        'vram-lab-measurements.json',
        measurementsJson({
          config: s.run.config ?? s.config,
          backend: s.run.backend,
          samples: s.memory.samples,
          steps: s.run.batches,
          epochs: s.run.epochs,
          predictions: currentPredictions(s),
          sweep: s.sweep.points,
        }),
        'application/json',
      ),
  },
  {
    label: 'Memory timeline (CSV)',
    save: (s) => saveFile('memory-timeline.csv', memoryCsv(s.memory.samples), CSV),
  },
  {
    label: 'Steps: peaks by category (CSV)',
    save: (s) => saveFile('steps.csv', stepsCsv(s.run.batches), CSV),
  },
  { label: 'Epochs (CSV)', save: (s) => saveFile('epochs.csv', epochsCsv(s.run.epochs), CSV) },
  { label: 'Sweep points (CSV)', save: (s) => saveFile('sweep-points.csv', sweepCsv(s.sweep.points), CSV) },
];

/** Downloads of the measurements and of every chart on the page as a PNG. */
export function MeasurementExports() {
  const [charts, setCharts] = useState<string | null>(null);
  const saveCharts = async () => {
    const found = pageCharts();
    const background = getComputedStyle(document.body).backgroundColor || '#fff';
    for (const { name, svg } of found) saveFile(`${name}.png`, await chartPng(svg, background), 'image/png');
    setCharts(
      found.length === 0
        ? 'No chart has data yet.'
        : `Saved ${found.length} chart${found.length === 1 ? '' : 's'}.`,
    );
  };
  return (
    <fieldset>
      <legend>Measurements</legend>
      <div className="buttons">
        {FILES.map((f) => (
          <button key={f.label} type="button" onClick={() => f.save(labStore.getState())}>
            {f.label}
          </button>
        ))}
        <button type="button" onClick={() => void saveCharts()}>
          Charts (PNG)
        </button>
      </div>
      {charts && <p role="status">{charts}</p>}
    </fieldset>
  );
}
