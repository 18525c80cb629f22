import type { WeightsReport } from '../../core/run/protocol';
import { count } from '../../core/format';

/** How the chosen weights match the model: matched layers and parameters, what is missing or extra. */
export function WeightsReportView({ report }: { report: WeightsReport }) {
  return (
    <div className="weights-report" data-testid="weights-report">
      <p>
        <strong>{report.source}</strong>: {report.matchedLayers} layers matched by name,{' '}
        {count(report.matchedParams)} of the model&apos;s {count(report.modelParams)} parameters load.
      </p>
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
