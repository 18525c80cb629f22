import type {
  EngineError,
  EngineEvent,
  EngineParams,
  EngineRequest,
  EngineRequestType,
  EngineResult,
} from '../core/run/protocol';
import type { LabEngine } from '../browser/engine';

/** One handler per request type, typed by the protocol's request → result map. */
type Handlers = {
  [K in EngineRequestType]: (
    engine: LabEngine,
    req: EngineParams<K>,
    emit: (e: EngineEvent) => void,
  ) => Promise<EngineResult<K>>;
};

const HANDLERS: Handlers = {
  init: (engine, req) => engine.init(req.backend, req.webglF16Textures ?? false),
  train: (engine, req, emit) => engine.train(req.config, req.dataset, emit, req.resumeFrom, req.resume),
  preview: (engine, req) => engine.preview(req.config, req.dataset, req.count),
  'lose-device': async (engine) => engine.loseDevice(),
  release: (engine) => engine.releaseAll(),
  provoke: (engine) => engine.provokeBufferLimit(),
  describe: async (engine, req) =>
    engine.describe(req.model, req.height, req.width, req.numClasses, req.weights),
  'load-weights': (engine, req) => engine.loadWeights(req.source),
  'weights-report': (engine, req) => engine.weightsReport(req.config, req.numClasses),
  sweep: (engine, req, emit) => engine.sweep(req.config, req.grid, req.numClasses, emit),
  'find-largest': (engine, req, emit) =>
    engine.findLargestBatch(req.config, req.preset, req.size, req.lo, req.hi, req.numClasses, emit),
  'export-model': (engine, req) => engine.exportModel(req.format),
  stop: async (engine) => {
    engine.stop();
    return true;
  },
};

/** Runs one request on the engine; progress goes to `emit`, the result is returned. */
export function dispatch<K extends EngineRequestType>(
  engine: LabEngine,
  req: EngineParams<K>,
  emit: (e: EngineEvent) => void,
): Promise<EngineResult<K>> {
  // The map's key and the handler's parameter are the same K; TypeScript cannot narrow a union-keyed
  // lookup by itself, so the handler is named with its own type once, here.
  const handler = HANDLERS[req.type] as Handlers[K];
  return handler(engine, req, emit);
}

/** Runs a request as it arrived over the wire (its type decides the handler). */
export function dispatchWire(
  engine: LabEngine,
  req: EngineRequest,
  emit: (e: EngineEvent) => void,
): Promise<EngineResult<EngineRequestType>> {
  return dispatch(engine, req, emit);
}

/** An Error as plain data, since structured clone drops custom fields. */
export function toEngineError(err: unknown): EngineError {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}
