import { describeStep } from '../../core/settings/techniques';
import type { BatchPoint } from '../../store/types';

/** How the last step ran, and the loss scale after it when loss scaling is on. */
export function StepTechniqueLine({ step }: { step: BatchPoint }) {
  return (
    <p className="hint" data-testid="step-technique">
      Last step: {describeStep(step.technique)}.
      {step.lossScale && (
        <span data-testid="loss-scale">
          {' '}
          Loss scale {step.lossScale.scale} → {step.lossScale.nextScale}; {step.lossScale.skippedSteps}{' '}
          updates skipped for non-finite gradients this phase.
        </span>
      )}
    </p>
  );
}
