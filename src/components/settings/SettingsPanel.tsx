import type { ReactNode } from 'react';
import { AugmentFields } from './AugmentFields';
import { MemoryFields } from './MemoryFields';
import { ModelFields } from './ModelFields';
import { PhaseFields } from './PhaseFields';
import { PrecisionFields } from './PrecisionFields';
import { PresetButton } from './PresetButton';
import { SplitFields } from './SplitFields';
import { TechniqueFields } from './TechniqueFields';

/** The settings, each part in the view where it is explained; one form, one schema behind all of them. */
const PARTS = {
  data: {
    title: 'Augmentation and split',
    fields: (
      <>
        <AugmentFields />
        <SplitFields />
      </>
    ),
  },
  model: {
    title: '2 · Model',
    fields: (
      <>
        <PresetButton />
        <ModelFields />
        <TechniqueFields />
      </>
    ),
  },
  card: { title: 'The card', fields: <MemoryFields /> },
  phases: { title: 'Phases', fields: <PhaseFields /> },
  precision: { title: 'Precision experiment', fields: <PrecisionFields /> },
} satisfies Record<string, { title: string; fields: ReactNode }>;

export type SettingsPart = keyof typeof PARTS;

/**
 * One part of the run's settings, one fieldset per concern; persisted, and validated as the user types
 * (the problems are listed under the run bar, on every view). Each fieldset locks while a run or a sweep
 * holds the engine.
 */
export function SettingsPanel({ part }: { part: SettingsPart }) {
  const { title, fields } = PARTS[part];
  return (
    <section
      className="panel settings"
      aria-labelledby={`${part}-settings-title`}
      data-testid={`settings-${part}`}
    >
      <h2 id={`${part}-settings-title`}>{title}</h2>
      {fields}
    </section>
  );
}
