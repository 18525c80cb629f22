import type { EngineError, EngineEvent, EngineRequest } from '../core/protocol';
import type { LabEngine } from '../browser/engine';

/** Runs one request on the engine; progress goes to `emit`, the result is returned. */
export function dispatch(
  engine: LabEngine,
  req: EngineRequest,
  emit: (e: EngineEvent) => void,
): Promise<unknown> {
  switch (req.type) {
    case 'init':
      return engine.init(req.backend, req.webglF16Textures ?? false);
    case 'train':
      return engine.train(req.config, req.dataset, emit, req.resumeFrom);
    case 'preview':
      return engine.preview(req.config, req.dataset, req.count);
    case 'lose-device':
      return Promise.resolve(engine.loseDevice());
    case 'release':
      return engine.releaseAll();
    case 'provoke':
      return engine.provokeBufferLimit();
    case 'describe':
      return Promise.resolve(engine.describe(req.model, req.height, req.width, req.numClasses));
    case 'load-weights':
      if (req.files) return engine.loadWeights({ files: req.files });
      if (req.url) return engine.loadWeights({ url: req.url });
      return Promise.reject(new Error('Give weight files or a URL.'));
    case 'weights-report':
      return engine.weightsReport(req.config, req.numClasses);
    case 'sweep':
      return engine.sweep(req.config, req.grid, req.numClasses, emit);
    case 'find-largest':
      return engine.findLargestBatch(req.config, req.preset, req.size, req.lo, req.hi, req.numClasses, emit);
    case 'stop':
      engine.stop();
      return Promise.resolve(true);
  }
}

/** An Error as plain data, since structured clone drops custom fields. */
export function toEngineError(err: unknown): EngineError {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}
