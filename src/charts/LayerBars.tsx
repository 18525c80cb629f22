import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatBytes } from '../core/memory';

interface Props {
  title: string;
  /** Bytes per layer, largest first. */ bars: { layer: string; bytes: number }[];
  /** Tag saying what the numbers are and where they were measured. */ tag: string;
}

/** Horizontal bars of bytes by layer. */
export function LayerBars({ title, bars, tag }: Props) {
  return (
    <figure className="chart" data-testid="layer-bars" data-bars={bars.length}>
      <figcaption>
        {title} <span className="label-measured">{tag}</span>
      </figcaption>
      <p className="chart-summary" data-testid="layer-bars-summary">
        {bars.length === 0
          ? 'No layers to show.'
          : `Largest: ${bars
              .slice(0, 3)
              .map((b) => `${b.layer} ${formatBytes(b.bytes)}`)
              .join(', ')}${bars.length > 3 ? `, and ${bars.length - 3} more layers` : ''}.`}
      </p>
      <ResponsiveContainer width="100%" height={Math.max(120, 24 * bars.length + 40)}>
        <BarChart data={bars} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tickFormatter={(b: number) => formatBytes(b)} />
          <YAxis type="category" dataKey="layer" width={170} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? formatBytes(v) : String(v))} />
          <Bar dataKey="bytes" name="saved for backward" fill="var(--chart-main)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
