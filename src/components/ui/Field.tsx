import { useId, type ReactNode } from 'react';

interface NumberFieldProps {
  label: string;
  value: number;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number | 'any';
  disabled?: boolean;
  hint?: ReactNode;
  testId?: string;
}

/** A labelled number input; an empty or partial entry is kept as NaN and reported by validation. */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  disabled,
  hint,
  testId,
}: NumberFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        value={Number.isFinite(value) ? value : ''}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
      />
      {hint && <small className="hint">{hint}</small>}
    </div>
  );
}

interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  testId?: string;
}

/** A labelled checkbox with an optional hint below it. */
export function CheckboxField({ label, checked, onChange, hint, testId }: CheckboxFieldProps) {
  return (
    <div className="field">
      <label>
        <input
          type="checkbox"
          data-testid={testId}
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        {label}
      </label>
      {hint && <small className="hint">{hint}</small>}
    </div>
  );
}
