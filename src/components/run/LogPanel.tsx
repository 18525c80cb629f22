import { useLab } from '../ui/useLab';

/** What happened, newest last: backend choice, phases, EarlyStopping, failures. */
export function LogPanel() {
  const log = useLab((s) => s.log);
  return (
    <section className="panel" aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      {log.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ol className="log" data-testid="log" aria-live="polite">
          {log.map((entry, i) => (
            <li key={`${entry.at}-${i}`} className={`log-${entry.level}`}>
              <time>{new Date(entry.at).toLocaleTimeString()}</time> {entry.message}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
