import type { StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import type { AtifObservationResult, AtifStep } from '../../trajectory/types.js';
import { isRecord } from '../json-path.js';
import { documentUsage, streamUsage } from './gemini-stats.js';
import { isoTime, text, toolArguments } from './trajectory-fields.js';

/**
 * Counts the model's replies in a Gemini CLI stream: a reply is the assistant text and tool calls
 * between two rounds of input (the prompt, the tool results).
 */
export class GeminiTurns {
  count = 0;
  #inReply = false;

  /** Feeds one event; true when it opens a new reply. */
  add(record: Record<string, unknown>): boolean {
    if (isReplyEvent(record)) {
      if (this.#inReply) return false;
      this.#inReply = true;
      this.count++;
      return true;
    }
    if (record.type === 'tool_result' || (record.type === 'message' && record.role === 'user')) this.#inReply = false;
    return false;
  }
}

function isReplyEvent(record: Record<string, unknown>): boolean {
  return record.type === 'tool_use' || (record.type === 'message' && record.role === 'assistant');
}

/**
 * Gemini CLI's steps. From `-o stream-json`: one agent step per model reply, its text the
 * assistant's deltas joined, its tool calls the `tool_use` events (`tool_name`, `tool_id`,
 * `parameters`) and its observation their `tool_result`s (`output`, or the error's message; a
 * failing shell command is no error to Gemini CLI, which prints no exit code); `error` events and an
 * error `result` become system steps. The stream carries no usage per reply. From `-o json`, which
 * holds no tool calls, one agent step with the final `response`.
 */
export function geminiTrajectory(): TrajectoryBuilder {
  const steps: AtifStep[] = [];
  const turns = new GeminiTurns();
  const stepOfCall = new Map<string, AtifStep>();
  let current: AtifStep | undefined;
  let sessionId: string | undefined;
  let model: string | undefined;
  let servedModel: string | undefined;

  const push = (step: Omit<AtifStep, 'step_id'>): AtifStep => {
    const numbered = { step_id: steps.length + 1, ...step };
    steps.push(numbered);
    return numbered;
  };

  return {
    add(record) {
      if (!isRecord(record)) return;
      const timestamp = isoTime(record.timestamp);
      if (turns.add(record) || (isReplyEvent(record) && !current)) {
        current = push({ ...(timestamp ? { timestamp } : {}), source: 'agent', message: '' });
      }
      switch (record.type) {
        case 'init':
          sessionId = text(record.session_id) ?? sessionId;
          model = text(record.model) ?? model;
          return;
        case 'message':
          if (record.role === 'assistant' && current) current.message += text(record.content) ?? '';
          return;
        case 'tool_use': {
          if (!current) return;
          const id = text(record.tool_id) ?? `call_${stepOfCall.size + 1}`;
          current.tool_calls ??= [];
          current.tool_calls.push({
            tool_call_id: id,
            function_name: text(record.tool_name) ?? '',
            arguments: toolArguments(record.parameters),
          });
          stepOfCall.set(id, current);
          return;
        }
        case 'tool_result': {
          const id = text(record.tool_id);
          const step = (id === undefined ? undefined : stepOfCall.get(id)) ?? current;
          if (!step) return;
          step.observation ??= { results: [] };
          step.observation.results.push(toolResult(record, id));
          return;
        }
        case 'error':
          current = undefined;
          push({
            ...(timestamp ? { timestamp } : {}),
            source: 'system',
            message: text(record.message) ?? '',
            extra: severity(record),
          });
          return;
        case 'result':
          current = undefined;
          if (isRecord(record.stats)) servedModel = streamUsage(record.stats, 0).model ?? servedModel;
          if (record.status === 'error') {
            const error = isRecord(record.error) ? record.error : {};
            push({
              ...(timestamp ? { timestamp } : {}),
              source: 'system',
              message: text(error.message) ?? 'error',
              extra: { is_error: true },
            });
          }
          return;
        case undefined:
          // The `-o json` document: the final text, and the error it ended with, if any.
          sessionId = text(record.session_id) ?? sessionId;
          if (isRecord(record.stats)) servedModel = documentUsage(record.stats).model ?? servedModel;
          if (text(record.response)) push({ source: 'agent', message: text(record.response) ?? '' });
          if (isRecord(record.error)) {
            push({ source: 'system', message: text(record.error.message) ?? 'error', extra: { is_error: true } });
          }
          return;
      }
    },
    finish(): StreamTrajectory {
      const name = servedModel ?? model;
      return {
        steps,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(name === undefined ? {} : { model: name }),
      };
    },
  };
}

function toolResult(record: Record<string, unknown>, id: string | undefined): AtifObservationResult {
  const error = isRecord(record.error) ? record.error : undefined;
  const output = text(record.output);
  const message = error ? text(error.message) : undefined;
  const content = [output, message].filter((part) => part !== undefined && part !== '').join('\n');
  const failed = record.status === 'error' || error !== undefined;
  return {
    ...(id === undefined ? {} : { source_call_id: id }),
    content,
    ...(failed
      ? { extra: { is_error: true, ...(error && text(error.type) ? { error_type: text(error.type) } : {}) } }
      : {}),
  };
}

function severity(record: Record<string, unknown>): Record<string, unknown> {
  const level = text(record.severity);
  return { ...(level === undefined ? {} : { severity: level }), ...(level === 'warning' ? {} : { is_error: true }) };
}
