import { Component, Fragment, useState, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the panel is, as a person calls it ("The planner"). */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  /** Where in the components the error was thrown, for a bug report. */
  where: string;
  /** Bumped by "Reset this panel": a new key mounts the panel afresh. */
  resets: number;
}

/**
 * Catches a render error in one panel so it never takes the page with it: the panel says what failed
 * and offers to reset it and to copy the error for a bug report; every other panel, the run and the
 * settings (in the store, untouched here) go on.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null, where: '', resets: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.setState({ where: info.componentStack ?? '' });
    console.error(`${this.props.name} failed:`, error);
  }

  override render() {
    const { error, where, resets } = this.state;
    if (!error) return <Fragment key={resets}>{this.props.children}</Fragment>;
    return (
      <PanelFailure
        name={this.props.name}
        error={error}
        where={where}
        onReset={() => this.setState((s) => ({ error: null, where: '', resets: s.resets + 1 }))}
      />
    );
  }
}

interface FailureProps {
  name: string;
  error: Error;
  where: string;
  onReset: () => void;
}

/** What a failed panel shows instead: the error in words, a reset, and the report to copy. */
function PanelFailure({ name, error, where, onReset }: FailureProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const report = `VRAM Lab: ${name} failed\n${error.name}: ${error.message}\n${error.stack ?? ''}\n${where}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(report);
      setCopied('Copied.');
    } catch {
      setCopied('The browser refused the clipboard: select the report below and copy it.');
    }
  };
  return (
    <section className="panel panel-failed" role="alert" data-testid="panel-failed">
      <h2>{name} failed</h2>
      <p>
        {error.name}: {error.message}
      </p>
      <p className="hint">
        The rest of the lab keeps working, and no setting was changed. Reset this panel to draw it again; if
        it fails again, change the setting it names, or copy the report for a bug report.
      </p>
      <div className="row">
        <button type="button" onClick={onReset}>
          Reset this panel
        </button>
        <button type="button" onClick={() => void copy()}>
          Copy the error
        </button>
        {copied && <span role="status">{copied}</span>}
      </div>
      <details>
        <summary>The report</summary>
        <pre className="panel-failed-report">{report}</pre>
      </details>
    </section>
  );
}
