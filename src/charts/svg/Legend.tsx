/** One legend entry: a line's sample (its stroke and dash) or the ✕ a chart marks points with. */
export interface LegendItem {
  id: string;
  name: string;
  stroke: string;
  dash?: string;
  mark?: 'line' | 'cross';
}

/** A ✕ of half-width `r` centred at (x, y), as a path's `d`. */
export const crossPath = (x: number, y: number, r: number) =>
  `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`;

/** The chart's legend above the drawing; the text keeps the page's colour, the sample carries the line's. */
export function Legend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul className="chart-legend">
      {items.map((l) => (
        <li key={l.id}>
          <svg width="14" height="10" aria-hidden="true">
            {l.mark === 'cross' ? (
              <path d={crossPath(7, 5, 4)} stroke={l.stroke} strokeWidth={2} strokeLinecap="round" />
            ) : (
              <line x1="0" x2="14" y1="5" y2="5" stroke={l.stroke} strokeWidth={2} strokeDasharray={l.dash} />
            )}
          </svg>
          {l.name}
        </li>
      ))}
    </ul>
  );
}
