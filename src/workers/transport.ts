import {
  UNSOLICITED,
  type EngineEvent,
  type EngineParams,
  type EngineReply,
  type EngineRequestType,
  type EngineResult,
} from '../core/run/protocol';

/** Sends requests to an engine and routes its replies back, whichever thread it lives on. */
export interface Transport {
  send<K extends EngineRequestType>(
    req: EngineParams<K>,
    onEvent?: (e: EngineEvent) => void,
  ): Promise<EngineResult<K>>;
  close(): void;
}

/** Where events nobody asked for go. */
export type UnsolicitedHandler = (e: EngineEvent) => void;

/** Error rebuilt on this side from the worker's plain-data copy. */
export class EngineFailure extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface Pending {
  resolve(value: EngineResult<EngineRequestType>): void;
  reject(err: Error): void;
  onEvent?: (e: EngineEvent) => void;
}

/** The engine in a dedicated module worker (the normal case). */
export class WorkerTransport implements Transport {
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor(
    private readonly worker: Worker,
    private readonly onUnsolicited: UnsolicitedHandler,
  ) {
    worker.onmessage = (ev: MessageEvent<EngineReply>) => this.receive(ev.data);
    worker.onerror = (ev) =>
      this.failAll(new EngineFailure('WorkerError', ev.message || 'The training worker crashed.'));
  }

  send<K extends EngineRequestType>(
    req: EngineParams<K>,
    onEvent?: (e: EngineEvent) => void,
  ): Promise<EngineResult<K>> {
    const id = this.nextId++;
    return new Promise<EngineResult<K>>((resolve, reject) => {
      // The engine answers request `id` with the result of the request's own type (workers/dispatch.ts
      // is typed by the same map), so the reply stored for this id is an EngineResult<K>.
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject, onEvent });
      this.worker.postMessage({ ...req, id });
    });
  }

  close(): void {
    this.worker.terminate();
    this.failAll(new EngineFailure('AbortError', 'The engine was restarted.'));
  }

  private receive(reply: EngineReply): void {
    if (reply.id === UNSOLICITED && reply.type === 'progress') {
      this.onUnsolicited(reply.event);
      return;
    }
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    if (reply.type === 'progress') {
      entry.onEvent?.(reply.event);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'result') entry.resolve(reply.value);
    else entry.reject(new EngineFailure(reply.error.name, reply.error.message));
  }

  private failAll(err: Error): void {
    for (const entry of this.pending.values()) entry.reject(err);
    this.pending.clear();
  }
}

/** The same engine on the page's thread, for browsers whose workers get no GPU. */
export class InThreadTransport implements Transport {
  private readonly engine: Promise<import('../browser/engine').LabEngine>;
  private readonly dispatch = import('./dispatch');

  constructor(onUnsolicited: UnsolicitedHandler) {
    this.engine = import('../browser/engine').then((m) => new m.LabEngine(false, onUnsolicited));
  }

  async send<K extends EngineRequestType>(
    req: EngineParams<K>,
    onEvent?: (e: EngineEvent) => void,
  ): Promise<EngineResult<K>> {
    const [engine, { dispatch }] = await Promise.all([this.engine, this.dispatch]);
    return dispatch(engine, req, (e) => onEvent?.(e));
  }

  close(): void {
    void this.engine.then((e) => e.stop());
  }
}
