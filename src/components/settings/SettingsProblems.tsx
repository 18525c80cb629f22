import { validateTrainConfig } from '../../core/settings/settings';
import { useLab } from '../ui/useLab';

/** Every problem with the settings as typed, validated against the one settings schema. */
export function SettingsProblems() {
  const config = useLab((s) => s.config);
  const problems = validateTrainConfig(config);
  if (problems.length === 0) return null;
  return (
    <ul className="error-text" role="alert" data-testid="settings-problems">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}
