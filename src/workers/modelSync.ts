// Keeps what the views show about the configured model in step with the settings: the planner's model
// description and the weights' match report. Each is rebuilt in the engine when what it depends on
// changes, never while a job holds the engine, and one change asks the engine once.
import { remediesFor, specsNeeded } from '../core/oom/remedies';
import { actions, appendLog } from '../store/actions';
import {
  selectBusy,
  selectConfigProblems,
  selectModelKey,
  selectNumClasses,
  selectSpecs,
  selectPlannerKey,
  selectWeightsKey,
} from '../store/selectors';
import { labStore } from '../store/store';
import { errorMessage } from '../core/format';
import type { Transport } from './transport';

export class ModelSync {
  /** The key being built now, so a second change with the same key does not ask again. */
  private plannerInFlight = '';
  private reportInFlight = '';
  private alternateInFlight = false;

  constructor(private readonly transport: () => Transport | null) {}

  refresh(): void {
    void this.refreshPlanner();
    void this.refreshWeightsReport();
    void this.refreshAlternates();
  }

  private free(): Transport | null {
    const s = labStore.getState();
    const transport = this.transport();
    return transport && s.engine.status === 'ready' && !selectBusy(s) ? transport : null;
  }

  /** The planner's view of the model (built in the engine with zero weights, freed at once). */
  private async refreshPlanner(): Promise<void> {
    const s = labStore.getState();
    const key = selectPlannerKey(s);
    const transport = this.free();
    if (!transport || key === s.planner.key || key === this.plannerInFlight) return;
    if (selectConfigProblems(s).length > 0) return;
    this.plannerInFlight = key;
    actions.plannerLoading();
    try {
      const { model, height, width, weights } = s.config;
      const spec = await transport.send({
        type: 'describe',
        model,
        height,
        width,
        weights,
        numClasses: selectNumClasses(s),
      });
      actions.plannerReady(spec, key);
    } catch (err) {
      actions.plannerFailed(key, errorMessage(err));
    } finally {
      this.plannerInFlight = '';
    }
  }

  /**
   * After an OOM, the model at the input sizes its fixes propose, so a smaller-size fix is predicted on
   * the real shapes at that size. One size at a time; sizes already described are not asked again.
   */
  private async refreshAlternates(): Promise<void> {
    const s = labStore.getState();
    const spec = s.planner.spec;
    if (s.run.status !== 'oom' || !s.run.oom || !spec || this.alternateInFlight) return;
    const transport = this.free();
    if (!transport) return;
    const have = selectSpecs(s);
    const remedies = remediesFor(s.run.oom, s.config, s.run.result?.lastPhase ?? null, spec);
    const missing = specsNeeded(remedies, s.config).find(
      (size) => !have.some((h) => h.height === size.height && h.width === size.width),
    );
    if (!missing) return;
    const key = selectModelKey(s);
    this.alternateInFlight = true;
    try {
      const described = await transport.send({
        type: 'describe',
        model: s.config.model,
        ...missing,
        numClasses: selectNumClasses(s),
      });
      actions.plannerAlternate(key, described);
    } catch (err) {
      appendLog(
        'warn',
        `The model could not be described at ${missing.height}×${missing.width}: ${errorMessage(err)}`,
      );
    } finally {
      this.alternateInFlight = false;
    }
  }

  /** How the chosen weights match the configured model (none for random initialisation). */
  private async refreshWeightsReport(): Promise<void> {
    const s = labStore.getState();
    const key = selectWeightsKey(s);
    const transport = this.free();
    if (!transport || key === s.weights.key || key === this.reportInFlight) return;
    if (s.config.weights === 'random' || selectConfigProblems(s).length > 0) {
      actions.weightsReported(key, null);
      return;
    }
    this.reportInFlight = key;
    try {
      const report = await transport.send({
        type: 'weights-report',
        config: s.config,
        numClasses: selectNumClasses(s),
      });
      actions.weightsReported(key, report);
    } catch (err) {
      actions.weightsReported(key, null, errorMessage(err));
    } finally {
      this.reportInFlight = '';
    }
  }
}
