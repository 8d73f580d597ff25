export {
  type ContainerEngine,
  ENGINE_MODES,
  type EngineMode,
  type EngineProbe,
  isEngineMode,
  probeEngine,
} from './engines/engines.js';
export { unbuiltEnvironment } from './host-fallback.js';
export { IMAGE_CACHE_ENV, imageCacheDir } from './image-store.js';
