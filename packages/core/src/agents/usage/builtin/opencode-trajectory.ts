import { boundArguments, boundStep, cutText, StepLog, TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamResult, StreamStep, StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import { addResult, addToolCall, appendCapped, isoTimestamp, toolCallId } from '../../trajectory/parts.js';
import type { AtifMetrics } from '../../trajectory/types.js';
import { isRecord } from '../json-path.js';
import { usageNumber } from '../usage-fields.js';
import { text, toolArguments } from './trajectory-fields.js';

/**
 * opencode's steps (`run --format json`): one agent step per model call, from `step_start` to
 * `step_finish`, its text the `text` parts, its reasoning the `reasoning` parts, its tool calls the
 * `tool_use` parts (`tool`, `callID`, `state.input`) with their results (`state.output`, or
 * `state.error` when the tool failed; a shell command's exit code from `state.metadata.exit`; the
 * tool's start and end from `state.time`), its metrics from `step_finish` (`tokens`, `cost`). An
 * `error` event is a system step. opencode names no model in its stream.
 */
export function opencodeTrajectory(): TrajectoryBuilder {
  const log = new StepLog();
  let current: StreamStep | undefined;
  let sessionId: string | undefined;
  let calls = 0;
  // Between step_finish and the next step_start: a part there (never seen from opencode) opens a step.
  let outside = true;

  // A step is bounded as it closes, so that no step keeps a huge text while the stream goes on.
  const close = () => {
    if (current && log.steps.at(-1) === current) log.steps[log.steps.length - 1] = boundStep(current);
    current = undefined;
  };
  const open = (timestamp: string | undefined): StreamStep | undefined => {
    close();
    outside = false;
    const step: StreamStep = { step_id: 0, ...(timestamp && { timestamp }), source: 'agent', message: '' };
    current = log.push(step) ? step : undefined;
    return current;
  };
  const step = (timestamp: string | undefined) => (outside ? open(timestamp) : current);

  return {
    add(record) {
      if (!isRecord(record)) return;
      sessionId ??= text(record.sessionID);
      const part = isRecord(record.part) ? record.part : {};
      const timestamp = isoTimestamp(record.timestamp);
      switch (record.type) {
        case 'step_start':
          open(timestamp);
          return;
        case 'text': {
          const target = step(timestamp);
          const piece = text(part.text) ?? '';
          if (target && piece !== '') target.message = appendCapped(target.message, piece, TRAJECTORY_LIMITS.text);
          return;
        }
        case 'reasoning': {
          const target = step(timestamp);
          const piece = text(part.text) ?? '';
          if (target && piece !== '') {
            target.reasoning_content = appendCapped(target.reasoning_content ?? '', piece, TRAJECTORY_LIMITS.text);
          }
          return;
        }
        case 'tool_use': {
          const target = step(timestamp);
          if (!target) return;
          const state = isRecord(part.state) ? part.state : {};
          const id = toolCallId(part.callID, ++calls);
          addToolCall(target, {
            tool_call_id: id,
            function_name: text(part.tool) ?? 'unknown',
            arguments: boundArguments(toolArguments(state.input)).arguments,
          });
          addResult(target, toolResult(id, state));
          return;
        }
        case 'step_finish': {
          const target = step(timestamp);
          if (target) {
            const metrics = stepMetrics(part);
            if (metrics) target.metrics = metrics;
            const reason = text(part.reason);
            if (reason !== undefined) target.extra = { ...target.extra, finish_reason: reason };
          }
          close();
          outside = true;
          return;
        }
        case 'error': {
          close();
          outside = true;
          const error = isRecord(record.error) ? record.error : {};
          const data = isRecord(error.data) ? error.data : {};
          const message = text(data.message) ?? text(error.name) ?? 'error';
          log.push({
            step_id: 0,
            ...(timestamp && { timestamp }),
            source: 'system',
            message: cutText(message, TRAJECTORY_LIMITS.text).text,
            extra: { is_error: true },
          });
          return;
        }
      }
    },
    finish(): StreamTrajectory {
      close();
      return {
        steps: log.steps,
        ...(sessionId !== undefined && { sessionId }),
        ...(log.dropped > 0 && { droppedSteps: log.dropped }),
      };
    },
  };
}

function toolResult(id: string, state: Record<string, unknown>): StreamResult {
  const failed = state.status === 'error';
  const raw = (failed ? text(state.error) : undefined) ?? text(state.output) ?? '';
  const content = cutText(raw, TRAJECTORY_LIMITS.result).text;
  const metadata = isRecord(state.metadata) ? state.metadata : {};
  const time = isRecord(state.time) ? state.time : {};
  const started = isoTimestamp(time.start);
  const ended = isoTimestamp(time.end);
  const extra: Record<string, unknown> = {
    ...(failed ? { is_error: true } : {}),
    ...(typeof metadata.exit === 'number' && Number.isInteger(metadata.exit) ? { exit_code: metadata.exit } : {}),
    ...(started === undefined ? {} : { started_at: started }),
    ...(ended === undefined ? {} : { ended_at: ended }),
  };
  return { source_call_id: id, content, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

/**
 * A step's figures as ATIF counts them: `prompt_tokens` every input token (opencode's `input` is
 * the uncached part, `cache.read` beside it), `completion_tokens` output and reasoning together.
 */
function stepMetrics(part: Record<string, unknown>): AtifMetrics | undefined {
  if (!isRecord(part.tokens)) return undefined;
  const tokens = part.tokens;
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  const input = count(tokens.input);
  const cached = count(cache.read);
  const output = count(tokens.output);
  const reasoning = count(tokens.reasoning);
  const cacheWrite = count(cache.write);
  const cost = usageNumber(part.cost);
  const metrics: AtifMetrics = {};
  if (input !== undefined || cached !== undefined) metrics.prompt_tokens = (input ?? 0) + (cached ?? 0);
  if (output !== undefined || reasoning !== undefined) metrics.completion_tokens = (output ?? 0) + (reasoning ?? 0);
  if (cached !== undefined) metrics.cached_tokens = cached;
  // opencode prints 0 for a model it has no prices for: no cost, rather than a free one.
  if (cost !== undefined && cost > 0) metrics.cost_usd = cost;
  const extra = {
    ...(reasoning ? { reasoning_tokens: reasoning } : {}),
    ...(cacheWrite ? { cache_write_tokens: cacheWrite } : {}),
  };
  if (Object.keys(extra).length > 0) metrics.extra = extra;
  return Object.keys(metrics).length > 0 ? metrics : undefined;
}

/** A token count: a whole number ≥ 0, as ATIF's counts are (an agent's `1.5` is none). */
function count(value: unknown): number | undefined {
  const figure = usageNumber(value);
  return figure !== undefined && Number.isSafeInteger(figure) ? figure : undefined;
}
