import { useMemo } from 'react';
import { BarsSvg } from './svg/BarsSvg';
import { formatBytes } from '../core/format';

/** Bars drawn; the smaller layers beyond them share one bar, so a deep model's chart stays one screen tall. */
export const MAX_BARS = 20;

interface Props {
  title: string;
  /** Bytes per layer, largest first. */ bars: { layer: string; bytes: number }[];
  /** Tag saying what the numbers are and where they were measured. */ tag: string;
}

/** The largest MAX_BARS - 1 layers and one bar summing the rest, or every bar when they fit. */
export function drawnBars(bars: Props['bars']): Props['bars'] {
  if (bars.length <= MAX_BARS) return bars;
  const rest = bars.slice(MAX_BARS - 1);
  const bytes = rest.reduce((sum, b) => sum + b.bytes, 0);
  return [...bars.slice(0, MAX_BARS - 1), { layer: `${rest.length} smaller layers`, bytes }];
}

/** Horizontal bars of bytes by layer. */
export function LayerBars({ title, bars, tag }: Props) {
  // Keyed on the values: each new step rebuilds an equal breakdown, which must not redraw the bars.
  const signature = bars.map((b) => `${b.layer}:${b.bytes}`).join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const drawn = useMemo(() => drawnBars(bars).map((b) => ({ label: b.layer, value: b.bytes })), [signature]);
  return (
    <figure className="chart" data-testid="layer-bars" data-bars={bars.length} data-drawn={drawn.length}>
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
      <BarsSvg bars={drawn} format={formatBytes} labelWidth={170} name="saved for backward" />
    </figure>
  );
}
