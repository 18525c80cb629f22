import type { PointerEvent, ReactNode, Ref } from 'react';
import { Legend, type LegendItem } from './Legend';

interface ChartPlotProps {
  /** The element whose width the chart draws at (useWidth's ref). */ drawingRef: Ref<HTMLDivElement>;
  legend: readonly LegendItem[];
  width: number;
  height: number;
  /** The pointer's x in the drawing, px; null when it leaves. */ onHover(px: number | null): void;
  /** The hover box, placed over the plot below the legend. */ readout?: ReactNode;
  children: ReactNode;
}

/** A hand-drawn chart's frame: the legend above, the SVG drawing, and the hover readout over it. */
export function ChartPlot({ drawingRef, legend, width, height, onHover, readout, children }: ChartPlotProps) {
  const onMove = (e: PointerEvent<SVGSVGElement>) =>
    onHover(e.clientX - e.currentTarget.getBoundingClientRect().left);
  return (
    <div className="chart-drawing" ref={drawingRef}>
      <Legend items={legend} />
      <div className="chart-plot">
        <svg
          className="chart-svg"
          width={width}
          height={height}
          aria-hidden="true"
          onPointerMove={onMove}
          onPointerLeave={() => onHover(null)}
        >
          {children}
        </svg>
        {readout}
      </div>
    </div>
  );
}
