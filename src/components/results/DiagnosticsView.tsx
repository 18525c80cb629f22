import { useState } from 'react';
import { misclassifiedIn, type DiagnosticsReport } from '../../core/run/diagnostics';
import { ClassScoresTable } from './ClassScoresTable';
import { ConfusionMatrix, type Cell } from './ConfusionMatrix';
import { MisclassifiedGallery } from './MisclassifiedGallery';

/** One phase's diagnostics: the matrix, whose cells filter the gallery, the per-class table and the gallery. */
export function DiagnosticsView({
  report,
  classNames,
}: {
  report: DiagnosticsReport;
  classNames: readonly string[];
}) {
  const [cell, setCell] = useState<Cell | null>(null);
  const name = (i: number) => classNames[i] ?? `class ${i}`;
  const title = cell ? `${name(cell.label)} predicted as ${name(cell.predicted)}` : 'All misclassified';
  return (
    <div className="diagnostics" data-testid={`diagnostics-${report.phase}`} data-total={report.total}>
      <p>
        After the {report.phase} phase: {report.correct} of {report.total} validation images right (
        {report.total > 0 ? ((report.correct / report.total) * 100).toFixed(1) : '—'}%). Click a cell to see
        its images.
      </p>
      <ConfusionMatrix counts={report.counts} classNames={classNames} selected={cell} onSelect={setCell} />
      <ClassScoresTable scores={report.perClass} classNames={classNames} />
      <MisclassifiedGallery items={misclassifiedIn(report, cell)} classNames={classNames} title={title} />
      {cell && (
        <button type="button" onClick={() => setCell(null)}>
          Show all misclassified
        </button>
      )}
    </div>
  );
}
