import { AugmentFields } from './AugmentFields';
import { MemoryFields } from './MemoryFields';
import { ModelFields } from './ModelFields';
import { PhaseFields } from './PhaseFields';
import { PrecisionFields } from './PrecisionFields';
import { PresetButton } from './PresetButton';
import { SettingsProblems } from './SettingsProblems';
import { SplitFields } from './SplitFields';
import { TechniqueFields } from './TechniqueFields';

/**
 * Every setting of a run, one fieldset per concern; persisted, and validated as the user types. Each
 * fieldset locks while a run or a sweep holds the engine.
 */
export function SettingsPanel() {
  return (
    <section className="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">2 · Settings</h2>
      <PresetButton />
      <ModelFields />
      <MemoryFields />
      <PhaseFields />
      <TechniqueFields />
      <PrecisionFields />
      <AugmentFields />
      <SplitFields />
      <SettingsProblems />
    </section>
  );
}
