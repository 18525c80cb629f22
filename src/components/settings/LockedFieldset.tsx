import type { ReactNode } from 'react';
import { selectBusy } from '../../store/selectors';
import { useLab } from '../ui/useLab';

interface LockedFieldsetProps {
  legend: string;
  testId?: string;
  children: ReactNode;
}

/** A settings fieldset, locked while any job (a run or a sweep) holds the engine and reads the settings. */
export function LockedFieldset({ legend, testId, children }: LockedFieldsetProps) {
  const locked = useLab(selectBusy);
  return (
    <fieldset disabled={locked} data-testid={testId}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
