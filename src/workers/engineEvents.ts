// The engine's events on their way into the store, at a rate the page can draw. A training run sends a
// step event per batch and memory samples four times a second; applied one by one, each is a store update
// that re-renders every view reading the run (charts, tables, the run bar), which kept the main thread
// busy for most of a run. Here the high-rate kinds wait up to FLUSH_MS and reach the store together, in
// one update; any other event (a phase, an epoch, a log line) and the end of the request first deliver
// what waits, so the store sees every event, in the engine's order, at most FLUSH_MS late.
import type { EngineEvent, EngineParams, EngineRequestType, EngineResult } from '../core/run/protocol';
import type { TimedEvent } from '../store/runReducers';
import type { Transport } from './transport';

/** Longest wait of a step or memory event before it reaches the store: at most five updates a second. */
export const FLUSH_MS = 200;

/** Kinds that arrive many times a second and that nothing has to see at once. */
const HIGH_RATE: ReadonlySet<EngineEvent['kind']> = new Set(['batch', 'memory']);

export class EventBatcher {
  private pending: TimedEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** Applies events in one store update, in order. */ private readonly apply: (
      events: TimedEvent[],
    ) => void,
    private readonly ms = FLUSH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one event, stamped now; delivers at once unless it is a high-rate kind. */
  readonly push = (event: EngineEvent): void => {
    this.pending.push({ event, at: this.now() });
    if (!HIGH_RATE.has(event.kind)) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.ms);
  };

  /** Delivers everything waiting now. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.apply(events);
  }

  /**
   * Sends a request whose events go through this batcher; whether it succeeds or fails, its events are
   * in the store before the caller sees the outcome (a run's end must follow its last step).
   */
  async send<K extends EngineRequestType>(
    transport: Transport,
    req: EngineParams<K>,
  ): Promise<EngineResult<K>> {
    try {
      return await transport.send(req, this.push);
    } finally {
      this.flush();
    }
  }
}
