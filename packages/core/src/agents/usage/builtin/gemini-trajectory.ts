import { boundArguments, boundStep, cutText, StepLog, TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamResult, StreamStep, StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import { addResult, addToolCall, isoTimestamp, toolCallId } from '../../trajectory/parts.js';
import { isRecord } from '../json-path.js';
import { documentUsage, streamUsage } from './gemini-stats.js';
import { text, toolArguments } from './trajectory-fields.js';

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
  const log = new StepLog();
  const turns = new GeminiTurns();
  const stepOfCall = new Map<string, StreamStep>();
  let current: StreamStep | undefined;
  let calls = 0;
  let sessionId: string | undefined;
  let model: string | undefined;
  let servedModel: string | undefined;

  // A step is bounded as it closes, so that no step keeps a huge text while the stream goes on.
  const close = () => {
    // The open step is always the last one kept.
    if (current && log.steps.at(-1) === current) {
      const bounded = boundStep(current);
      log.steps[log.steps.length - 1] = bounded;
      // A late result finds the bounded copy.
      for (const call of bounded.tool_calls ?? []) stepOfCall.set(call.tool_call_id, bounded);
    }
    current = undefined;
  };
  const push = (step: Omit<StreamStep, 'step_id'>): StreamStep | undefined => {
    const numbered: StreamStep = { step_id: 0, ...step };
    return log.push(numbered) ? numbered : undefined;
  };
  const system = (timestamp: string | undefined, message: string, extra: Record<string, unknown>) => {
    close();
    push({
      ...(timestamp && { timestamp }),
      source: 'system',
      message: cutText(message, TRAJECTORY_LIMITS.text).text,
      extra,
    });
  };

  return {
    add(record) {
      if (!isRecord(record)) return;
      const timestamp = isoTimestamp(record.timestamp);
      const opens = turns.add(record);
      if (opens || (isReplyEvent(record) && !current)) {
        close();
        current = push({ ...(timestamp && { timestamp }), source: 'agent', message: '' });
      }
      switch (record.type) {
        case 'init':
          sessionId = text(record.session_id) ?? sessionId;
          model = text(record.model) ?? model;
          return;
        case 'message':
          // The reply's text comes in deltas: joined as they are, kept within twice the bound for boundStep to mark.
          if (record.role === 'assistant' && current) {
            current.message = `${current.message}${text(record.content) ?? ''}`.slice(0, 2 * TRAJECTORY_LIMITS.text);
          }
          return;
        case 'tool_use': {
          if (!current) return;
          const id = toolCallId(record.tool_id, ++calls);
          addToolCall(current, {
            tool_call_id: id,
            function_name: text(record.tool_name) ?? 'unknown',
            arguments: boundArguments(toolArguments(record.parameters)).arguments,
          });
          stepOfCall.set(id, current);
          return;
        }
        case 'tool_result': {
          const id = typeof record.tool_id === 'string' ? toolCallId(record.tool_id, 0) : undefined;
          const step = (id === undefined ? undefined : stepOfCall.get(id)) ?? current;
          if (step) addResult(step, toolResult(record, id));
          return;
        }
        case 'error':
          system(timestamp, text(record.message) ?? 'error', severity(record));
          return;
        case 'result':
          if (isRecord(record.stats)) servedModel = streamUsage(record.stats, 0).model ?? servedModel;
          if (record.status === 'error') {
            const error = isRecord(record.error) ? record.error : {};
            system(timestamp, text(error.message) ?? 'error', { is_error: true });
          } else close();
          return;
        case undefined:
          // The `-o json` document: the final text, and the error it ended with, if any.
          sessionId = text(record.session_id) ?? sessionId;
          if (isRecord(record.stats)) servedModel = documentUsage(record.stats).model ?? servedModel;
          if (text(record.response)) {
            push({ source: 'agent', message: cutText(text(record.response) ?? '', TRAJECTORY_LIMITS.text).text });
          }
          if (isRecord(record.error)) system(undefined, text(record.error.message) ?? 'error', { is_error: true });
          return;
      }
    },
    finish(): StreamTrajectory {
      close();
      const name = servedModel ?? model;
      return {
        steps: log.steps,
        ...(sessionId !== undefined && { sessionId }),
        ...(name !== undefined && { model: name }),
        ...(log.dropped > 0 && { droppedSteps: log.dropped }),
      };
    },
  };
}

function toolResult(record: Record<string, unknown>, id: string | undefined): StreamResult {
  const error = isRecord(record.error) ? record.error : undefined;
  const output = text(record.output);
  const message = error ? text(error.message) : undefined;
  const content = [output, message].filter((part) => part !== undefined && part !== '').join('\n');
  const failed = record.status === 'error' || error !== undefined;
  const errorType = error ? text(error.type) : undefined;
  return {
    ...(id !== undefined && { source_call_id: id }),
    content: cutText(content, TRAJECTORY_LIMITS.result).text,
    ...(failed && { extra: { is_error: true, ...(errorType !== undefined && { error_type: errorType }) } }),
  };
}

function severity(record: Record<string, unknown>): Record<string, unknown> {
  const level = text(record.severity);
  return { ...(level !== undefined && { severity: level }), ...(level !== 'warning' && { is_error: true }) };
}
