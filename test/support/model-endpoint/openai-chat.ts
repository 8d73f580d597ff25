import type { ServerResponse } from 'node:http';
import { type Dialect, list, type ReplyContext, record, text } from './dialect.js';
import type { Reply } from './script.js';
import { sendEvent, sendJson, startEvents } from './sse.js';

/** OpenAI chat completions (`POST /v1/chat/completions`), streaming and not: Qwen Code, opencode. */
export const openaiChat: Dialect = {
  api: 'chat',
  matches: (method, pathname) => method === 'POST' && pathname === '/v1/chat/completions',
  describe(body) {
    const request = record(body);
    return {
      model: text(request?.model),
      stream: request?.stream === true,
      toolNames: list(request?.tools).flatMap((tool) => text(record(record(tool)?.function)?.name) ?? []),
      toolResults: list(request?.messages).filter((message) => record(message)?.role === 'tool').length,
    };
  },
  respond(res, reply, context) {
    if (context.stream) streamCompletion(res, reply, context);
    else sendJson(res, 200, completion(reply, context));
  },
};

function usage(reply: Reply) {
  const { input, output, cachedInput = 0 } = reply.usage;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: cachedInput },
  };
}

function toolCall(reply: Reply & { kind: 'tool' }, serial: number) {
  return {
    id: `call_${serial}`,
    type: 'function',
    function: { name: reply.name, arguments: JSON.stringify(reply.arguments) },
  };
}

function completion(reply: Reply, { servedModel, serial }: ReplyContext) {
  const message =
    reply.kind === 'tool'
      ? { role: 'assistant', content: null, tool_calls: [toolCall(reply, serial)] }
      : { role: 'assistant', content: reply.text };
  return {
    id: `chatcmpl-${serial}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: servedModel,
    choices: [{ index: 0, message, finish_reason: reply.kind === 'tool' ? 'tool_calls' : 'stop' }],
    usage: usage(reply),
  };
}

function streamCompletion(res: ServerResponse, reply: Reply, { servedModel, serial }: ReplyContext): void {
  const base = {
    id: `chatcmpl-${serial}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: servedModel,
  };
  startEvents(res);
  const delta =
    reply.kind === 'tool'
      ? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall(reply, serial) }] }
      : { role: 'assistant', content: reply.text };
  sendEvent(res, { ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  const finish = reply.kind === 'tool' ? 'tool_calls' : 'stop';
  sendEvent(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  sendEvent(res, { ...base, choices: [], usage: usage(reply) });
  sendEvent(res, '[DONE]');
  res.end();
}
