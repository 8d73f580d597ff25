import { boundArguments, cutText, StepLog, TRAJECTORY_LIMITS } from '../../trajectory/bounds.js';
import type { StreamStep, StreamTrajectory, TrajectoryBuilder } from '../../trajectory/builder.js';
import {
  addResult,
  addToolCall,
  appendCapped,
  isoTimestamp,
  toolCallId,
  toolResultText,
} from '../../trajectory/parts.js';
import type { AtifMetrics } from '../../trajectory/types.js';
import { isRecord } from '../json-path.js';
import { usageNumber } from '../usage-fields.js';

/** How a Claude-style stream counts a message's tokens. */
export interface ClaudeStyleFlavor {
  /** Anthropic's `input_tokens` leave cache reads and writes out (Claude Code); OpenAI-style ones count them (Qwen Code). */
  cacheBesideInput: boolean;
}

/**
 * The steps of a Claude-style stream (Claude Code's `stream-json`, Qwen Code's `stream-json` and
 * `json`): one agent step per assistant message, however many records it is printed as (Claude Code
 * prints one per content block, all under the message's id), with its text, `thinking` as
 * reasoning, `tool_use` blocks as tool calls, and the message's usage as the step's metrics; the
 * `tool_result` blocks of later `user` records are the observation of the step that made the call.
 */
export function claudeStyleTrajectory(flavor: ClaudeStyleFlavor): TrajectoryBuilder {
  const log = new StepLog();
  const stepOfCall = new Map<string, StreamStep>();
  let current: { id: unknown; step: StreamStep | undefined } | undefined;
  let sessionId: string | undefined;
  let agentVersion: string | undefined;
  let requestedModel: string | undefined;
  let servedModel: string | undefined;
  let offeredSkills: string[] | undefined;
  let resultText: string | undefined;
  let calls = 0;

  const openStep = (id: unknown, record: Record<string, unknown>, model: unknown): StreamStep | undefined => {
    const step: StreamStep = { step_id: 0, source: 'agent', message: '' };
    const timestamp = isoTimestamp(record.timestamp);
    if (timestamp !== undefined) step.timestamp = timestamp;
    if (typeof model === 'string' && model !== '<synthetic>') step.model_name = model;
    if (typeof record.parent_tool_use_id === 'string') step.extra = { parent_tool_call_id: record.parent_tool_use_id };
    const kept = log.push(step) ? step : undefined;
    current = { id, step: kept };
    return kept;
  };

  const addAssistant = (record: Record<string, unknown>, message: Record<string, unknown>) => {
    const main = record.parent_tool_use_id === null || record.parent_tool_use_id === undefined;
    if (main && typeof message.model === 'string' && message.model !== '<synthetic>') servedModel = message.model;
    // A message without an id cannot be told from the next: each such record is a step of its own.
    const same = current !== undefined && message.id !== undefined && current.id === message.id;
    const step = same ? current?.step : openStep(message.id, record, message.model);
    if (step === undefined) return;
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        step.message = appendCapped(step.message, block.text, TRAJECTORY_LIMITS.text);
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        step.reasoning_content = appendCapped(step.reasoning_content ?? '', block.thinking, TRAJECTORY_LIMITS.text);
      } else if (block.type === 'tool_use') {
        const id = toolCallId(block.id, ++calls);
        const input = isRecord(block.input) ? block.input : { input: block.input ?? null };
        const name = typeof block.name === 'string' ? block.name : 'unknown';
        addToolCall(step, { tool_call_id: id, function_name: name, arguments: boundArguments(input).arguments });
        stepOfCall.set(id, step);
      }
    }
    const metrics = isRecord(message.usage) ? metricsOf(message.usage, flavor) : undefined;
    if (metrics !== undefined) step.metrics = metrics;
  };

  const addUser = (record: Record<string, unknown>, message: Record<string, unknown>) => {
    const content = message.content;
    if (typeof content === 'string') {
      addUserText(record, content);
      return;
    }
    const texts: string[] = [];
    for (const block of Array.isArray(content) ? content : []) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const id = toolCallId(block.tool_use_id, 0);
      const step = stepOfCall.get(id);
      if (step === undefined) continue;
      addResult(step, {
        source_call_id: id,
        content: cutText(toolResultText(block.content), TRAJECTORY_LIMITS.result).text,
        ...(block.is_error === true && { extra: { is_error: true } }),
      });
    }
    if (texts.length > 0) addUserText(record, texts.join('\n\n'));
  };

  // A user message within the run (a sub-agent's task, a hook's note): a step of its own.
  const addUserText = (record: Record<string, unknown>, text: string) => {
    const step: StreamStep = { step_id: 0, source: 'user', message: cutText(text, TRAJECTORY_LIMITS.text).text };
    const timestamp = isoTimestamp(record.timestamp);
    if (timestamp !== undefined) step.timestamp = timestamp;
    if (typeof record.parent_tool_use_id === 'string') step.extra = { parent_tool_call_id: record.parent_tool_use_id };
    log.push(step);
    current = undefined;
  };

  const builder: TrajectoryBuilder = {
    add(record) {
      // Qwen Code's `json` format is one array of these records.
      if (Array.isArray(record)) {
        for (const element of record) builder.add(element);
        return;
      }
      if (!isRecord(record)) return;
      if (record.type === 'system' && record.subtype === 'init') {
        if (typeof record.session_id === 'string') sessionId = record.session_id;
        if (typeof record.model === 'string') requestedModel = record.model;
        const version = record.claude_code_version ?? record.qwen_code_version;
        if (typeof version === 'string') agentVersion = version;
        const offered = Array.isArray(record.skills) ? record.skills : record.slash_commands;
        if (Array.isArray(offered)) {
          offeredSkills = offered.filter((name): name is string => typeof name === 'string').slice(0, 1000);
        }
      } else if (record.type === 'assistant' && isRecord(record.message)) {
        addAssistant(record, record.message);
      } else if (record.type === 'user' && isRecord(record.message)) {
        addUser(record, record.message);
      } else if (record.type === 'result') {
        if (typeof record.result === 'string') resultText = record.result;
        if (sessionId === undefined && typeof record.session_id === 'string') sessionId = record.session_id;
      }
    },
    finish(): StreamTrajectory {
      // Claude Code's `json` format prints the closing result alone: its text is the one step there is.
      if (log.steps.length === 0 && log.dropped === 0 && resultText !== undefined) {
        log.push({ step_id: 0, source: 'agent', message: cutText(resultText, TRAJECTORY_LIMITS.text).text });
      }
      const model = servedModel ?? requestedModel;
      return {
        steps: log.steps,
        ...(sessionId !== undefined && { sessionId }),
        ...(agentVersion !== undefined && { agentVersion }),
        ...(model !== undefined && { model }),
        ...(offeredSkills !== undefined && { offeredSkills }),
        ...(log.dropped > 0 && { droppedSteps: log.dropped }),
      };
    },
  };
  return builder;
}

function metricsOf(usage: Record<string, unknown>, flavor: ClaudeStyleFlavor): AtifMetrics | undefined {
  const input = usageNumber(usage.input_tokens);
  const output = usageNumber(usage.output_tokens);
  const cacheRead = usageNumber(usage.cache_read_input_tokens);
  const cacheWrite = usageNumber(usage.cache_creation_input_tokens);
  const metrics: AtifMetrics = {};
  if (input !== undefined) {
    metrics.prompt_tokens = flavor.cacheBesideInput ? input + (cacheRead ?? 0) + (cacheWrite ?? 0) : input;
  }
  // Claude Code prints each block with the usage of the message's start, whose output count is a
  // placeholder 0: no reply of a model costs nothing, so a 0 is left out rather than reported.
  if (output !== undefined && output > 0) metrics.completion_tokens = output;
  if (cacheRead !== undefined) metrics.cached_tokens = cacheRead;
  if (cacheWrite !== undefined && cacheWrite > 0) metrics.extra = { cache_creation_input_tokens: cacheWrite };
  return Object.keys(metrics).length > 0 ? metrics : undefined;
}
