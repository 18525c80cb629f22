/** One point of a line, in data units. */
export interface SvgPoint {
  x: number;
  y: number;
}

/** One line of a chart; `points` sorted by x. */
export interface SvgLine {
  id: string;
  name: string;
  points: readonly SvgPoint[];
  stroke: string;
  width?: number;
  dash?: string;
  /** A dot on every point (for short per-epoch lines). */ dots?: boolean;
}

/** A vertical marker (a phase or an epoch boundary) with its label at the top or the bottom. */
export interface SvgMarker {
  x: number;
  label: string;
  stroke: string;
  dash?: string;
  at: 'top' | 'bottom';
}

/** The plot's frame in pixels and the two mappings from data units into it. */
export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  /** The data x at the left and at the right edge. */ xDomain: [number, number];
  px: (x: number) => number;
  py: (y: number) => number;
  xTicks: number[];
  yTicks: number[];
  /** The y ticks' spacing, for labels that need its decimals. */ yStep: number;
}
