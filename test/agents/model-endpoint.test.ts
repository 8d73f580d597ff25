import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelEndpoint, type ModelScript, startModelEndpoint } from '../support/model-endpoint/index.js';

// The scripted endpoint itself, through plain HTTP: the agents' own tests rely on each of these.
const script: ModelScript = {
  servedModel: 'served-1',
  steps: [
    {
      kind: 'tool',
      name: 'write',
      arguments: { path: 'hello.txt' },
      usage: { input: 100, output: 10, cachedInput: 5 },
    },
    { kind: 'text', text: 'done', usage: { input: 200, output: 20 } },
  ],
};
let endpoint: ModelEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${endpoint?.origin}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('the scripted model endpoint', () => {
  it('listens on 127.0.0.1 only', async () => {
    endpoint = await startModelEndpoint(script);
    expect(endpoint.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers the n-th scripted step to the request that carries n tool results, in each API', async () => {
    endpoint = await startModelEndpoint(script);
    const tools = [{ name: 'write' }];
    const anthropic = await post('/v1/messages', { model: 'm', tools, messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.parse(anthropic.text)).toMatchObject({
      model: 'served-1',
      content: [{ type: 'tool_use', name: 'write', input: { path: 'hello.txt' } }],
      usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 5 },
    });
    const withResult = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'ok' }] }];
    expect(JSON.parse((await post('/v1/messages', { model: 'm', tools, messages: withResult })).text)).toMatchObject({
      content: [{ type: 'text', text: 'done' }],
      stop_reason: 'end_turn',
    });
    const chat = await post('/v1/chat/completions', {
      model: 'm',
      tools: [{ type: 'function', function: { name: 'write' } }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', content: 'ok' },
      ],
    });
    expect(JSON.parse(chat.text)).toMatchObject({
      choices: [{ message: { content: 'done' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 200, completion_tokens: 20 },
    });
    const gemini = await post('/v1beta/models/gemini-x:generateContent', {
      tools: [{ functionDeclarations: [{ name: 'write' }] }],
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(JSON.parse(gemini.text)).toMatchObject({
      candidates: [{ content: { parts: [{ functionCall: { name: 'write' } }] } }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, cachedContentTokenCount: 5 },
      modelVersion: 'served-1',
    });
    expect(endpoint.requests.map((each) => [each.api, each.step, each.model])).toEqual([
      ['anthropic', 0, 'm'],
      ['anthropic', 1, 'm'],
      ['chat', 1, 'm'],
      ['gemini', 0, 'gemini-x'],
    ]);
  });

  it('streams server-sent events, the Responses API ending with response.completed and its usage', async () => {
    endpoint = await startModelEndpoint(script);
    const response = await post('/v1/responses', {
      model: 'm',
      stream: true,
      tools: [{ type: 'function', name: 'write' }],
      input: [],
    });
    const events = response.text.split('\n').filter((line) => line.startsWith('event: '));
    expect(events).toEqual([
      'event: response.created',
      'event: response.output_item.added',
      'event: response.output_item.done',
      'event: response.completed',
    ]);
    expect(response.text).toContain(
      '"usage":{"input_tokens":100,"input_tokens_details":{"cached_tokens":5},"output_tokens":10',
    );
  });

  it('answers requests that offer no tools (titles, checks) outside the script, with no tokens', async () => {
    endpoint = await startModelEndpoint(script);
    const title = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'title?' }] });
    expect(JSON.parse(title.text)).toMatchObject({
      choices: [{ message: { content: 'ok' } }],
      usage: { prompt_tokens: 0 },
    });
    expect(endpoint.requests[0]).toMatchObject({ side: true });
    expect(endpoint.scriptedReplies()).toEqual([]);
  });

  it('says 404 to paths it does not serve, and keeps them for the test to see', async () => {
    endpoint = await startModelEndpoint(script);
    expect((await post('/v1/models/unknown', {})).status).toBe(404);
    const head = await new Promise<number>((resolve) => {
      request(`${endpoint?.origin}/`, { method: 'HEAD' }, (res) => resolve(res.statusCode ?? 0)).end();
    });
    expect(head).toBe(200);
    expect(endpoint.unknown).toEqual(['POST /v1/models/unknown']);
  });
});
