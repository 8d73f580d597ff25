export { assembleTrajectory, summarizeTrajectory, type TrajectoryParts } from './assemble.js';
export { boundArguments, boundStep, cutText, StepLog, TRAJECTORY_LIMITS } from './bounds.js';
export type { StreamResult, StreamStep, StreamTrajectory, TrajectoryBuilder } from './builder.js';
export {
  agentTrajectoryFormat,
  parseTrajectoryFormat,
  TRAJECTORY_FORMAT_NAMES,
  TrajectoryFormatError,
  trajectoryFormat,
} from './formats.js';
export { resultMarks } from './result-marks.js';
export {
  AtifFinalMetricsSchema,
  AtifMetricsSchema,
  AtifObservationResultSchema,
  AtifStepSchema,
  AtifToolCallSchema,
  TRAJECTORY_JSON_SCHEMA_ID,
  TrajectorySchema,
  trajectoryJsonSchema,
} from './schema.js';
export type * from './types.js';
export { ATIF_SCHEMA_VERSION } from './types.js';
