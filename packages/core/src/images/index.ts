export { type AppliedLayer, applyLayer, LayerError, pathInImage } from './apply-layer.js';
export { type ImageConfig, type UnpackedImage, unpackImage } from './image-archive.js';
export { readTar, type TarEntry, TarError } from './tar-entries.js';
