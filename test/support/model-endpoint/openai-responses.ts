import type { ServerResponse } from 'node:http';
import { type Dialect, list, type ReplyContext, record, text } from './dialect.js';
import type { Reply } from './script.js';
import { sendEvent, sendJson, startEvents } from './sse.js';

const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/** The OpenAI Responses API (`POST /v1/responses`), as Codex speaks it with `wire_api = "responses"`. */
export const openaiResponses: Dialect = {
  api: 'responses',
  matches: (method, pathname) => method === 'POST' && pathname === '/v1/responses',
  describe(body) {
    const request = record(body);
    return {
      model: text(request?.model),
      stream: request?.stream === true,
      toolNames: toolNames([
        ...list(request?.tools),
        // Codex offers a known model's tools in the input, grouped in namespaces.
        ...list(request?.input).flatMap((item) =>
          record(item)?.type === 'additional_tools' ? list(record(item)?.tools) : [],
        ),
      ]),
      toolResults: list(request?.input).filter((item) => TOOL_OUTPUTS.has(String(record(item)?.type))).length,
    };
  },
  respond(res, reply, context) {
    if (context.stream) streamResponse(res, reply, context);
    else sendJson(res, 200, response(reply, context));
  },
};

function toolNames(tools: unknown[]): string[] {
  return tools.flatMap((tool) => {
    const entry = record(tool);
    if (entry?.type === 'namespace') return toolNames(list(entry.tools));
    return text(entry?.name) ?? [];
  });
}

function outputItem(reply: Reply, serial: number) {
  return reply.kind === 'tool'
    ? {
        type: 'function_call',
        id: `fc_${serial}`,
        call_id: `call_${serial}`,
        name: reply.name,
        arguments: JSON.stringify(reply.arguments),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${serial}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      };
}

function response(reply: Reply, { servedModel, serial }: ReplyContext) {
  const { input, output, cachedInput = 0 } = reply.usage;
  return {
    id: `resp_${serial}`,
    object: 'response',
    status: 'completed',
    model: servedModel,
    output: [outputItem(reply, serial)],
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cachedInput },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    },
  };
}

function streamResponse(res: ServerResponse, reply: Reply, context: ReplyContext): void {
  const done = response(reply, context);
  startEvents(res);
  const created = { ...done, status: 'in_progress', output: [], usage: null };
  sendEvent(res, { type: 'response.created', response: created }, 'response.created');
  const item = outputItem(reply, context.serial);
  sendEvent(res, { type: 'response.output_item.added', output_index: 0, item }, 'response.output_item.added');
  if (reply.kind === 'text') {
    const delta = {
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: reply.text,
    };
    sendEvent(res, delta, 'response.output_text.delta');
  }
  sendEvent(res, { type: 'response.output_item.done', output_index: 0, item }, 'response.output_item.done');
  sendEvent(res, { type: 'response.completed', response: done }, 'response.completed');
  res.end();
}
