import type { ClassScores } from '../../core/run/diagnostics';

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');

/** Precision, recall (accuracy on the class's own images) and one-vs-rest accuracy of every class. */
export function ClassScoresTable({
  scores,
  classNames,
}: {
  scores: ClassScores[];
  classNames: readonly string[];
}) {
  return (
    <table className="class-scores" data-testid="class-scores">
      <caption>
        Per class, on the validation split (— where nothing was predicted or there is no image)
      </caption>
      <thead>
        <tr>
          <th scope="col">class</th>
          <th scope="col">images</th>
          <th scope="col">precision</th>
          <th scope="col">recall</th>
          <th scope="col">accuracy (one vs rest)</th>
        </tr>
      </thead>
      <tbody>
        {scores.map((s, k) => (
          <tr key={k}>
            <th scope="row">{classNames[k] ?? `class ${k}`}</th>
            <td>{s.support}</td>
            <td>{pct(s.precision)}</td>
            <td>{pct(s.recall)}</td>
            <td>{pct(s.accuracy)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
