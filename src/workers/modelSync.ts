// Keeps what the views show about the configured model in step with the settings: the planner's model
// description and the weights' match report. Each is rebuilt in the engine when what it depends on
// changes, never while a job holds the engine, and one change asks the engine once.
import { actions } from '../store/actions';
import {
  selectBusy,
  selectConfigProblems,
  selectNumClasses,
  selectPlannerKey,
  selectWeightsKey,
} from '../store/selectors';
import { labStore } from '../store/store';
import { messageOf } from './engineStart';
import type { Transport } from './transport';

export class ModelSync {
  /** The key being built now, so a second change with the same key does not ask again. */
  private plannerInFlight = '';
  private reportInFlight = '';

  constructor(private readonly transport: () => Transport | null) {}

  refresh(): void {
    void this.refreshPlanner();
    void this.refreshWeightsReport();
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
      const { model, height, width } = s.config;
      const spec = await transport.send({
        type: 'describe',
        model,
        height,
        width,
        numClasses: selectNumClasses(s),
      });
      actions.plannerReady(spec, key);
    } catch (err) {
      actions.plannerFailed(key, messageOf(err));
    } finally {
      this.plannerInFlight = '';
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
      actions.weightsReported(key, null, messageOf(err));
    } finally {
      this.reportInFlight = '';
    }
  }
}
