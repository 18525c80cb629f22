import { UNSOLICITED, type EngineEvent, type EngineReply, type EngineRequest } from '../core/protocol';

/** Request without its id; the transport numbers requests. */
export type Request = EngineRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/** Sends requests to an engine and routes its replies back, whichever thread it lives on. */
export interface Transport {
  send(req: Request, onEvent?: (e: EngineEvent) => void): Promise<unknown>;
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

/** The engine in a dedicated module worker (the normal case). */
export class WorkerTransport implements Transport {
  private nextId = 1;
  private pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; onEvent?: (e: EngineEvent) => void }
  >();

  constructor(
    private readonly worker: Worker,
    private readonly onUnsolicited: UnsolicitedHandler,
  ) {
    worker.onmessage = (ev: MessageEvent<EngineReply>) => this.receive(ev.data);
    worker.onerror = (ev) =>
      this.failAll(new EngineFailure('WorkerError', ev.message || 'The training worker crashed.'));
  }

  send(req: Request, onEvent?: (e: EngineEvent) => void): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onEvent });
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

  async send(req: Request, onEvent?: (e: EngineEvent) => void): Promise<unknown> {
    const [engine, { dispatch }] = await Promise.all([this.engine, this.dispatch]);
    return dispatch(engine, { ...req, id: 0 } as EngineRequest, (e) => onEvent?.(e));
  }

  close(): void {
    void this.engine.then((e) => e.stop());
  }
}
