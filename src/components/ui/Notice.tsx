import { useLab } from './useLab';
import './Notice.css';

/** The last command the lab refused and why, e.g. loading data while a run holds the engine. */
export function Notice() {
  const notice = useLab((s) => s.notice);
  if (!notice) return null;
  return (
    <p className="notice" role="status" data-testid="notice">
      {notice.message}
    </p>
  );
}
