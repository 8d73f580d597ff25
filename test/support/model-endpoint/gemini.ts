import { type Dialect, list, type ReplyContext, record, text } from './dialect.js';
import type { Reply } from './script.js';
import { sendEvent, sendJson, startEvents } from './sse.js';

const GENERATE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Gemini's `models/<m>:generateContent` and `:streamGenerateContent` (`?alt=sse`): Gemini CLI. */
export const gemini: Dialect = {
  api: 'gemini',
  matches: (method, pathname) => method === 'POST' && GENERATE.test(pathname),
  describe(body, pathname, search) {
    const request = record(body);
    const [, model, method] = GENERATE.exec(pathname) ?? [];
    let toolResults = 0;
    for (const content of list(request?.contents)) {
      for (const part of list(record(content)?.parts)) if (record(part)?.functionResponse) toolResults++;
    }
    const toolNames = list(request?.tools).flatMap((tool) =>
      list(record(tool)?.functionDeclarations).flatMap((declaration) => text(record(declaration)?.name) ?? []),
    );
    return {
      model: model === undefined ? undefined : decodeURIComponent(model),
      stream: method === 'streamGenerateContent' || search.get('alt') === 'sse',
      toolNames,
      toolResults,
    };
  },
  respond(res, reply, context) {
    if (context.stream) {
      startEvents(res);
      sendEvent(res, generated(reply, context));
      res.end();
    } else sendJson(res, 200, generated(reply, context));
  },
};

function generated(reply: Reply, { servedModel }: ReplyContext) {
  const part =
    reply.kind === 'tool' ? { functionCall: { name: reply.name, args: reply.arguments } } : { text: reply.text };
  const { input, output, cachedInput = 0 } = reply.usage;
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: input + output,
      ...(cachedInput > 0 ? { cachedContentTokenCount: cachedInput } : {}),
    },
    modelVersion: servedModel,
  };
}
