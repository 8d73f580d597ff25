export { unbuiltEnvironment } from './host-fallback.js';
export { IMAGE_CACHE_ENV, imageCacheDir } from './image-store.js';
