import type { StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import type { AtifMetrics, AtifObservationResult, AtifStep } from '../../trajectory/types.js';
import { isRecord } from '../json-path.js';
import { usageNumber } from '../usage-fields.js';
import { isoTime, text, toolArguments } from './trajectory-fields.js';

/**
 * opencode's steps (`run --format json`): one agent step per model call, from `step_start` to
 * `step_finish`, its text the `text` parts, its reasoning the `reasoning` parts, its tool calls the
 * `tool_use` parts (`tool`, `callID`, `state.input`) with their results (`state.output`, or
 * `state.error` when the tool failed; a shell command's exit code from `state.metadata.exit`; the
 * tool's start and end from `state.time`), its metrics from `step_finish` (`tokens`, `cost`). An
 * `error` event is a system step. opencode names no model in its stream.
 */
export function opencodeTrajectory(): TrajectoryBuilder {
  const steps: AtifStep[] = [];
  let current: AtifStep | undefined;
  let sessionId: string | undefined;

  const open = (timestamp: string | undefined): AtifStep => {
    const step: AtifStep = {
      step_id: steps.length + 1,
      ...(timestamp ? { timestamp } : {}),
      source: 'agent',
      message: '',
    };
    steps.push(step);
    return step;
  };

  return {
    add(record) {
      if (!isRecord(record)) return;
      sessionId ??= text(record.sessionID);
      const part = isRecord(record.part) ? record.part : {};
      const timestamp = isoTime(record.timestamp);
      switch (record.type) {
        case 'step_start':
          current = open(timestamp);
          return;
        case 'text':
          current ??= open(timestamp);
          current.message = joined(current.message, text(part.text));
          return;
        case 'reasoning':
          current ??= open(timestamp);
          current.reasoning_content = joined(current.reasoning_content ?? '', text(part.text));
          return;
        case 'tool_use': {
          current ??= open(timestamp);
          const state = isRecord(part.state) ? part.state : {};
          const id = text(part.callID) ?? `call_${steps.length}_${(current.tool_calls?.length ?? 0) + 1}`;
          current.tool_calls ??= [];
          current.tool_calls.push({
            tool_call_id: id,
            function_name: text(part.tool) ?? '',
            arguments: toolArguments(state.input),
          });
          current.observation ??= { results: [] };
          current.observation.results.push(toolResult(id, state));
          return;
        }
        case 'step_finish': {
          const step = current ?? open(timestamp);
          current = undefined;
          const metrics = stepMetrics(part);
          if (metrics) step.metrics = metrics;
          const reason = text(part.reason);
          if (reason !== undefined) step.extra = { ...step.extra, finish_reason: reason };
          return;
        }
        case 'error': {
          current = undefined;
          const error = isRecord(record.error) ? record.error : {};
          const data = isRecord(error.data) ? error.data : {};
          const message = text(data.message) ?? text(error.name) ?? 'error';
          steps.push({
            step_id: steps.length + 1,
            ...(timestamp ? { timestamp } : {}),
            source: 'system',
            message,
            extra: { is_error: true },
          });
          return;
        }
      }
    },
    finish(): StreamTrajectory {
      return { steps, ...(sessionId === undefined ? {} : { sessionId }) };
    },
  };
}

function joined(before: string, more: string | undefined): string {
  if (more === undefined || more === '') return before;
  return before === '' ? more : `${before}\n${more}`;
}

function toolResult(id: string, state: Record<string, unknown>): AtifObservationResult {
  const failed = state.status === 'error';
  const content = (failed ? text(state.error) : undefined) ?? text(state.output) ?? '';
  const metadata = isRecord(state.metadata) ? state.metadata : {};
  const time = isRecord(state.time) ? state.time : {};
  const started = isoTime(time.start);
  const ended = isoTime(time.end);
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
  const input = usageNumber(tokens.input);
  const cached = usageNumber(cache.read);
  const output = usageNumber(tokens.output);
  const reasoning = usageNumber(tokens.reasoning);
  const cacheWrite = usageNumber(cache.write);
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
  return metrics;
}
