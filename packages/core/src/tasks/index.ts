export { isTaskFile, taskFilesOf } from './find-tasks.js';
export { ImportError, type ImportedSuite, type ImportTarget, importTasks } from './import-tasks.js';
