import type { CSSProperties } from 'react';
import type { DefaultLegendContentProps, DotItemDotProps } from 'recharts';

export const OOM_COLOR = 'var(--chart-oom)';

/** A red ✕ where a point ran out of memory. */
export function OomMarker({ cx, cy, index }: DotItemDotProps) {
  if (typeof cx !== 'number' || typeof cy !== 'number' || !Number.isFinite(cx) || !Number.isFinite(cy))
    return <g key={index} />;
  return (
    <path
      key={index}
      d={`M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx - 6},${cy + 6}L${cx + 6},${cy - 6}`}
      stroke={OOM_COLOR}
      strokeWidth={3}
      strokeLinecap="round"
      data-testid="sweep-oom-marker"
    />
  );
}

const LEGEND_STYLE: CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'center',
  gap: '0.2rem 1rem',
  listStyle: 'none',
  margin: '0 0 0.4rem',
  padding: 0,
  fontSize: '0.8rem',
};
const LEGEND_ICONS: Record<string, string> = {
  measured: '—●—',
  predicted: '- - -',
  keras: '· · ·',
  kerasMixed: '· · ·',
  oomAt: '✕',
};

/** The legend, with the ✕ the chart draws (recharts' own 'cross' icon is a plus). */
export function SweepLegend({ payload }: DefaultLegendContentProps) {
  return (
    <ul style={LEGEND_STYLE}>
      {payload?.map((entry) => (
        <li key={entry.value} style={{ color: entry.color }}>
          <span aria-hidden="true">{LEGEND_ICONS[String(entry.dataKey)]}</span> {entry.value}
        </li>
      ))}
    </ul>
  );
}
