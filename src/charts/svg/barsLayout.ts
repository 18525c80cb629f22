// Where a horizontal bar chart draws: one row per bar, a value axis from zero with round ticks, and
// labels cut to the room beside the bars. Pure functions: BarsSvg only renders what these return.
import { niceTicks, scale } from './ticks';
import { maxOf } from '../../core/extent';

export interface BarsBox {
  width: number;
  /** Room for the labels left of the bars, px. */ labelWidth: number;
  /** Height of one bar's row, px. */ row: number;
  top: number;
  right: number;
  /** Room under the bars for the tick labels, px. */ bottom: number;
}

/** The bars' frame: the plot's edges, the value → x mapping, its ticks and each row's top. */
export interface BarsFrame {
  left: number;
  top: number;
  width: number;
  height: number;
  px: (v: number) => number;
  ticks: number[];
  rowTop: (i: number) => number;
}

/** The frame for `values` in a box: about one tick per 80 px, the axis' end a round value above the largest. */
export function barsFrame(values: readonly number[], box: BarsBox): BarsFrame {
  const width = Math.max(10, box.width - box.labelWidth - box.right);
  // An all-zero chart still gets an axis from zero (niceTicks would centre one on the flat value).
  const largest = Math.max(0, maxOf(values.filter(Number.isFinite))) || 1;
  const { ticks, domain } = niceTicks(0, largest, Math.max(2, Math.floor(width / 80)), { extend: true });
  return {
    left: box.labelWidth,
    top: box.top,
    width,
    height: values.length * box.row,
    px: scale(domain, [box.labelWidth, box.labelWidth + width]),
    ticks,
    rowTop: (i) => box.top + i * box.row,
  };
}

/**
 * `label` cut with an ellipsis to about `px` pixels of text `fontPx` high. The width is estimated (an
 * average glyph is about 0.6 of the font size), not measured: measuring each label in the DOM is what
 * made the chart library this replaces block the page.
 */
export function fitted(label: string, px: number, fontPx: number): string {
  const chars = Math.max(4, Math.floor(px / (fontPx * 0.6)));
  return label.length <= chars ? label : `${label.slice(0, chars - 1)}…`;
}
