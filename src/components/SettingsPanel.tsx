import { AugmentFields } from './settings/AugmentFields';
import { MemoryFields } from './settings/MemoryFields';
import { ModelFields } from './settings/ModelFields';
import { PhaseFields } from './settings/PhaseFields';
import { PrecisionFields } from './settings/PrecisionFields';
import { PresetButton } from './settings/PresetButton';
import { SettingsProblems } from './settings/SettingsProblems';
import { SplitFields } from './settings/SplitFields';
import { TechniqueFields } from './settings/TechniqueFields';

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
