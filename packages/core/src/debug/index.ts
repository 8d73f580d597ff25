export { DEBUG_ENV, markStage, startTimingOrigin, TIMING_ORIGIN_ENV, timingEnabled } from './stage-timing.js';
