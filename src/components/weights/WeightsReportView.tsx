import type { WeightsReport } from '../../core/run/protocol';

/** How the chosen weights match the model: matched layers and parameters, what is missing or extra. */
export function WeightsReportView({ report }: { report: WeightsReport }) {
  return (
    <div className="weights-report" data-testid="weights-report">
      <p data-testid="weights-headline">
        <strong>{report.headline}</strong> {report.matchedLayers} layers match.
      </p>
      {report.pairedByStructure.length > 0 && (
        <p role="status" data-testid="weights-by-structure">
          Matched by position and weight shapes, not by name (the names differ):{' '}
          {report.pairedByStructure.join(', ')}.
        </p>
      )}
      {report.error && (
        <p role="alert" className="error-text" data-testid="weights-report-error">
          {report.error}
        </p>
      )}
      <dl>
        <dt>Missing (keep their initialisation)</dt>
        <dd data-testid="weights-missing" data-count={report.missing.length}>
          {report.missing.length ? report.missing.join(', ') : 'none'}
        </dd>
        <dt>Unexpected (in the weights, not in the model; ignored)</dt>
        <dd data-testid="weights-unexpected" data-count={report.unexpected.length}>
          {report.unexpected.length ? report.unexpected.join(', ') : 'none'}
        </dd>
        <dt>Shape mismatches</dt>
        <dd data-testid="weights-mismatches" data-count={report.mismatches.length}>
          {report.mismatches.length ? report.mismatches.join('; ') : 'none'}
        </dd>
      </dl>
      {report.provenance.length > 0 && (
        <details data-testid="weights-provenance">
          <summary>Where these weights come from</summary>
          {report.provenance.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </details>
      )}
    </div>
  );
}
