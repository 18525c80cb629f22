/** A chart's text alternative: one sentence saying what its lines show, read before the drawing. */
export function ChartSummary({ testId, text }: { testId: string; text: string }) {
  return (
    <p className="chart-summary" data-testid={testId}>
      {text}
    </p>
  );
}
