import { boundArguments, cutText, StepLog, TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamResult, StreamStep, StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import { addResult, addToolCall, appendCapped, toolCallId, toolResultText } from '../../trajectory/parts.js';
import type { AtifToolCall } from '../../trajectory/types.js';
import { isRecord } from '../json-path.js';

/**
 * The steps of `codex exec --json`. Codex prints items, not model calls, so steps are told apart
 * this way: a model reply is its reasoning and text, then its tool calls; a tool item that starts
 * when every tool of the current step has finished belongs to the next reply (parallel calls of one
 * reply start before the first of them ends), and so does reasoning or text that follows a tool.
 * Each `turn.started` starts a new step too. Commands, file changes, MCP calls and web searches are
 * tool calls named after their item type, with their output, exit code and status as the result;
 * error items and failed turns are `system` steps. Codex prints per-turn usage only (a turn spans
 * many model calls), so steps carry no metrics: the totals are in `final_metrics`.
 */
export function codexTrajectory(): TrajectoryBuilder {
  const log = new StepLog();
  let step: StreamStep | undefined;
  // The current step's tool items that have started and not yet completed.
  const running = new Set<string>();
  const calls = new Map<string, { step: StreamStep; call: AtifToolCall }>();
  let sessionId: string | undefined;
  let serial = 0;
  let fresh = true;

  const newStep = (): StreamStep | undefined => {
    running.clear();
    fresh = false;
    const next: StreamStep = { step_id: 0, source: 'agent', message: '' };
    step = log.push(next) ? next : undefined;
    return step;
  };
  const hasTools = () => (step?.tool_calls?.length ?? 0) > 0;
  // A step that a text or reasoning item joins: a new one after a tool, as the reply it answers has ended.
  const textStep = () => (fresh || step === undefined || hasTools() ? newStep() : step);
  const toolStep = () => (fresh || step === undefined || (hasTools() && running.size === 0) ? newStep() : step);

  const system = (message: string) => {
    log.push({ step_id: 0, source: 'system', message: cutText(message, TRAJECTORY_LIMITS.text).text });
    step = undefined;
  };

  const startTool = (item: Record<string, unknown>): { step: StreamStep; call: AtifToolCall } | undefined => {
    const id = toolCallId(item.id, ++serial);
    const known = calls.get(id);
    if (known) return known;
    const target = toolStep();
    if (target === undefined) return undefined;
    const call: AtifToolCall = {
      tool_call_id: id,
      function_name: String(item.type),
      arguments: boundArguments(toolArguments(item)).arguments,
    };
    addToolCall(target, call);
    running.add(id);
    const entry = { step: target, call };
    calls.set(id, entry);
    return entry;
  };

  const completeTool = (item: Record<string, unknown>) => {
    const entry = startTool(item);
    if (entry === undefined) return;
    running.delete(entry.call.tool_call_id);
    const result = toolResult(item);
    addResult(entry.step, { source_call_id: entry.call.tool_call_id, ...result });
  };

  return {
    add(record) {
      if (!isRecord(record)) return;
      switch (record.type) {
        case 'thread.started':
          if (typeof record.thread_id === 'string') sessionId = record.thread_id;
          return;
        case 'turn.started':
          fresh = true;
          return;
        case 'turn.failed':
          system(`turn failed: ${errorMessage(record.error)}`);
          return;
        case 'error':
          system(errorMessage(record));
          return;
      }
      if ((record.type !== 'item.started' && record.type !== 'item.completed') || !isRecord(record.item)) return;
      const { item } = record;
      const completed = record.type === 'item.completed';
      if (TOOL_ITEMS.has(String(item.type))) {
        if (completed) completeTool(item);
        else startTool(item);
      } else if (!completed) {
        // Text and reasoning are whole in their item.completed.
      } else if (item.type === 'agent_message' && typeof item.text === 'string') {
        const target = textStep();
        if (target) target.message = appendCapped(target.message, item.text, TRAJECTORY_LIMITS.text);
      } else if (item.type === 'reasoning' && typeof item.text === 'string') {
        const target = textStep();
        if (target) {
          target.reasoning_content = appendCapped(target.reasoning_content ?? '', item.text, TRAJECTORY_LIMITS.text);
        }
      } else if (item.type === 'error') {
        system(errorMessage(item));
      }
    },
    finish(): StreamTrajectory {
      return {
        steps: log.steps,
        ...(sessionId !== undefined && { sessionId }),
        ...(log.dropped > 0 && { droppedSteps: log.dropped }),
      };
    },
  };
}

/** Items of `codex exec --json` that are the agent's tool calls (as its usage counts them). */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

function toolArguments(item: Record<string, unknown>): Record<string, unknown> {
  switch (item.type) {
    case 'command_execution':
      return { command: item.command ?? null };
    case 'file_change':
      return { changes: Array.isArray(item.changes) ? item.changes : [] };
    case 'mcp_tool_call':
      return { server: item.server ?? null, tool: item.tool ?? null, arguments: item.arguments ?? null };
    default:
      return { query: item.query ?? null };
  }
}

function toolResult(item: Record<string, unknown>): Omit<StreamResult, 'source_call_id'> {
  const status = typeof item.status === 'string' ? item.status : undefined;
  const extra: Record<string, unknown> = {};
  if (status !== undefined) extra.status = status;
  let content: string;
  if (item.type === 'command_execution') {
    content = typeof item.aggregated_output === 'string' ? item.aggregated_output : '';
    if (typeof item.exit_code === 'number') extra.exit_code = item.exit_code;
    if ((typeof item.exit_code === 'number' && item.exit_code !== 0) || status === 'failed') extra.is_error = true;
  } else if (item.type === 'mcp_tool_call') {
    const error = isRecord(item.error) ? item.error.message : item.error;
    content = error ? String(error) : toolResultText(isRecord(item.result) ? item.result.content : item.result);
    if (error || status === 'failed') extra.is_error = true;
  } else {
    content = status ?? '';
    if (status === 'failed') extra.is_error = true;
  }
  return {
    content: cutText(content, TRAJECTORY_LIMITS.result).text,
    ...(Object.keys(extra).length > 0 && { extra }),
  };
}

function errorMessage(value: unknown): string {
  if (isRecord(value) && typeof value.message === 'string') return value.message;
  return typeof value === 'string' ? value : 'error';
}
