import { useId, useState } from 'react';
import { SweepChart } from '../../charts/SweepChart';
import { byBatch, bySize, type SweepGrid, type SweepPoint } from '../../core/sweep/sweep';
import { FLOAT16_WORDS } from '../../core/oom/remedies';
import { gridPresets } from '../../core/sweep/precision';

interface ChartsProps {
  points: SweepPoint[];
  grid: SweepGrid;
  presetLabel(id: string): string;
  budgetBytes: number | null;
  backendLabel: string;
}

const uniqueSorted = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
const pick = <T,>(options: T[], choice: T | undefined, fallback: T | undefined) =>
  choice !== undefined && options.includes(choice) ? choice : (fallback ?? options[0]);

/** Peak against batch size and against input size, for the preset, size and batch the user picks. */
export function SweepCharts({ points, grid, presetLabel, budgetBytes, backendLabel }: ChartsProps) {
  const [chosen, setChosen] = useState<{ presetId?: string; size?: number; batch?: number }>({});
  // Options come from the points once there are some (the grid may have been edited since).
  const presetIds =
    points.length > 0 ? [...new Set(points.map((p) => p.presetId))] : gridPresets(grid).map((p) => p.id);
  const sizes = uniqueSorted(points.length > 0 ? points.map((p) => p.size) : grid.sizes);
  const batches = uniqueSorted(points.length > 0 ? points.map((p) => p.batch) : grid.batches);
  // By default follow the latest point, so a running sweep shows the curve it is drawing.
  const latest = points.at(-1);
  const preset = pick(presetIds, chosen.presetId, latest?.presetId);
  const size = pick(sizes, chosen.size, latest?.size);
  const batch = pick(batches, chosen.batch, batches[0]);
  if (preset === undefined || size === undefined || batch === undefined) return null;
  const chart = { budgetBytes, backendLabel };

  return (
    <div className="sweep-charts">
      <ChartSelect
        label="Preset shown"
        testId="sweep-chart-preset"
        value={preset}
        options={presetIds.map((id) => ({ value: id, text: presetLabel(id) }))}
        onChange={(presetId) => setChosen((c) => ({ ...c, presetId }))}
      />
      <div className="charts">
        <div>
          <ChartSelect
            label="Input size"
            testId="sweep-chart-size"
            value={String(size)}
            options={sizes.map((s) => ({ value: String(s), text: `${s}×${s}` }))}
            onChange={(v) => setChosen((c) => ({ ...c, size: Number(v) }))}
          />
          <SweepChart
            title={`Peak vs batch size · ${size}×${size} · ${presetLabel(preset)}`}
            xLabel="batch size"
            rows={byBatch(points, size, preset)}
            {...chart}
          />
        </div>
        <div>
          <ChartSelect
            label="Batch size"
            testId="sweep-chart-batch"
            value={String(batch)}
            options={batches.map((b) => ({ value: String(b), text: String(b) }))}
            onChange={(v) => setChosen((c) => ({ ...c, batch: Number(v) }))}
          />
          <SweepChart
            title={`Peak vs input size · batch ${batch} · ${presetLabel(preset)}`}
            xLabel="input size (px, square)"
            rows={bySize(points, batch, preset)}
            {...chart}
          />
        </div>
      </div>
      <PrecisionNote />
    </div>
  );
}

interface ChartSelectProps {
  label: string;
  testId: string;
  value: string;
  options: { value: string; text: string }[];
  onChange(value: string): void;
}

/** Which slice of the grid a chart shows. */
function ChartSelect({ label, testId, value, options, onChange }: ChartSelectProps) {
  const id = useId();
  return (
    <div className="field sweep-select">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What the precision axis measures here, and what the Keras lines predict beside it. */
function PrecisionNote() {
  return (
    <p className="hint" data-testid="sweep-precision-note">
      Precision: tfjs 4.22 has no float16 dtype, so what the sweep measures is {FLOAT16_WORDS} (tick float16
      storage under Precision: each fine-tune preset also runs checkpointed with its block boundaries kept as
      float16 pairs, as its own series). The dotted lines are the planner&apos;s Keras/CUDA prediction for the
      same steps in float32 and in mixed float16 (float16 activations and math, float32 master weights): the
      question &quot;would this fit in Keras on that card?&quot;.
    </p>
  );
}
