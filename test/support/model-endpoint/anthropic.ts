import type { ServerResponse } from 'node:http';
import { type Dialect, list, type ReplyContext, record, text } from './dialect.js';
import type { Reply } from './script.js';
import { sendEvent, sendJson, startEvents } from './sse.js';

/** The Anthropic Messages API (`POST /v1/messages`), streaming and not: Claude Code. */
export const anthropic: Dialect = {
  api: 'anthropic',
  matches: (method, pathname) => method === 'POST' && pathname === '/v1/messages',
  describe(body) {
    const request = record(body);
    const messages = list(request?.messages);
    let toolResults = 0;
    for (const message of messages) {
      for (const block of list(record(message)?.content)) {
        if (record(block)?.type === 'tool_result') toolResults++;
      }
    }
    return {
      model: text(request?.model),
      stream: request?.stream === true,
      toolNames: list(request?.tools).flatMap((tool) => text(record(tool)?.name) ?? []),
      toolResults,
    };
  },
  respond(res, reply, context) {
    if (context.stream) streamMessage(res, reply, context);
    else sendJson(res, 200, message(reply, context));
  },
};

function usage(reply: Reply) {
  return {
    input_tokens: reply.usage.input,
    output_tokens: reply.usage.output,
    cache_creation_input_tokens: reply.usage.cacheWrite ?? 0,
    cache_read_input_tokens: reply.usage.cachedInput ?? 0,
  };
}

function content(reply: Reply, serial: number) {
  return reply.kind === 'tool'
    ? { type: 'tool_use', id: `toolu_${serial}`, name: reply.name, input: reply.arguments }
    : { type: 'text', text: reply.text };
}

function message(reply: Reply, { servedModel, serial }: ReplyContext) {
  return {
    id: `msg_${serial}`,
    type: 'message',
    role: 'assistant',
    model: servedModel,
    content: [content(reply, serial)],
    stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usage(reply),
  };
}

function streamMessage(res: ServerResponse, reply: Reply, context: ReplyContext): void {
  const { serial } = context;
  startEvents(res);
  const start = {
    ...message(reply, context),
    content: [],
    stop_reason: null,
    usage: { ...usage(reply), output_tokens: 0 },
  };
  sendEvent(res, { type: 'message_start', message: start }, 'message_start');
  if (reply.kind === 'tool') {
    const block = { type: 'tool_use', id: `toolu_${serial}`, name: reply.name, input: {} };
    sendEvent(res, { type: 'content_block_start', index: 0, content_block: block }, 'content_block_start');
    const delta = { type: 'input_json_delta', partial_json: JSON.stringify(reply.arguments) };
    sendEvent(res, { type: 'content_block_delta', index: 0, delta }, 'content_block_delta');
  } else {
    const block = { type: 'text', text: '' };
    sendEvent(res, { type: 'content_block_start', index: 0, content_block: block }, 'content_block_start');
    const delta = { type: 'text_delta', text: reply.text };
    sendEvent(res, { type: 'content_block_delta', index: 0, delta }, 'content_block_delta');
  }
  sendEvent(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  const stop = { stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null };
  sendEvent(res, { type: 'message_delta', delta: stop, usage: { output_tokens: reply.usage.output } }, 'message_delta');
  sendEvent(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}
