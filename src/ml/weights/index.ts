export { WeightLoadError, type WeightErrorKind } from './errors';
export {
  assignWeights,
  describeMismatch,
  matchWeights,
  pairedByStructure,
  reportError,
  reportHeadline,
  type LayerMatch,
  type LoadOptions,
  type WeightMismatch,
  type WeightPair,
  type WeightReport,
} from './report';
export { sourceFromLayersModel, type SourceLayer, type SourceWeight, type WeightSource } from './source';
export {
  DEFAULT_MAX_H5_BYTES,
  loadKerasH5Weights,
  openKerasH5,
  writeKerasH5,
  type KerasH5File,
  type KerasWeightFormat,
  type OpenH5Options,
} from './h5';
export {
  copyWeightsByName,
  fetchTfjsArtifacts,
  GRAPH_MODEL_FROZEN_REASON,
  loadTfjsModel,
  readTfjsFiles,
  type LoadedTfjsModel,
  type ModelFileLike,
  type TfjsArtifacts,
} from './tfjs';
export { fetchWeightFiles, readWeightFiles, type WeightFiles } from './dropped';
export {
  loadNsfwjsBackbone,
  NSFWJS_MOBILENET_V2,
  nsfwjsBackboneWeights,
  type NsfwjsBackboneOptions,
} from './nsfwjs';
