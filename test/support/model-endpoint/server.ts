import { chmod } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic } from './anthropic.js';
import type { Dialect } from './dialect.js';
import { gemini } from './gemini.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';
import type { ModelRequest, ModelScript, Reply, TextReply } from './script.js';
import { sendJson } from './sse.js';

const DIALECTS: Dialect[] = [anthropic, openaiResponses, openaiChat, gemini];
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_SIDE_REPLY: TextReply = { kind: 'text', text: 'ok', usage: { input: 0, output: 0 } };

/** A running scripted endpoint. */
export interface ModelEndpoint {
  /** `http://127.0.0.1:<port>`, without a trailing slash or `/v1`. */
  origin: string;
  /** Every model request it answered, in order of arrival. */
  requests: ModelRequest[];
  /** Requests to paths it does not serve (method and path), which it answered 404. */
  unknown: string[];
  /** The scripted replies it gave, in order (side replies excluded). */
  scriptedReplies(): Reply[];
  close(): Promise<void>;
}

/** Where else the endpoint listens. */
export interface ModelEndpointOptions {
  /**
   * A Unix socket it also listens on (mode 0777), for a command in a network namespace of its own
   * that reaches it through netns-bridge.mjs.
   */
  socketPath?: string;
}

/**
 * Starts a model endpoint on 127.0.0.1 that plays `script`: the request whose conversation holds n
 * tool results gets step n, so an agent's own extra requests (titles, checks: requests offering no
 * tools) and retries never shift the script. Connections from anywhere but loopback are refused.
 */
export async function startModelEndpoint(
  script: ModelScript,
  options: ModelEndpointOptions = {},
): Promise<ModelEndpoint> {
  const requests: ModelRequest[] = [];
  const unknown: string[] = [];
  let serial = 0;
  const serve = (local: boolean) =>
    createServer((req, res) => {
      handle(req, res, local).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.destroy();
      });
    });
  const server = serve(false);
  const socketServer = options.socketPath === undefined ? undefined : serve(true);

  async function handle(req: IncomingMessage, res: ServerResponse, viaSocket: boolean): Promise<void> {
    // A Unix socket is local by nature; TCP connections must come from loopback.
    if (!viaSocket && !isLoopback(req.socket.remoteAddress)) {
      res.writeHead(403).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {}
    const pathname = url.pathname.replace(/\/+$/, '');
    const dialect = DIALECTS.find((candidate) => candidate.matches(method, pathname));
    if (!dialect) {
      otherRoute(method, pathname, res, unknown);
      return;
    }
    const shape = dialect.describe(body, pathname, url.searchParams);
    const side = shape.toolNames.length === 0;
    const request: ModelRequest = {
      api: dialect.api,
      method,
      url: url.pathname + url.search,
      ...shape,
      side,
      body,
      headers: req.headers,
    };
    requests.push(request);
    let reply: Reply = script.sideReply ?? DEFAULT_SIDE_REPLY;
    if (!side) {
      const step = script.steps[shape.toolResults];
      if (step === undefined) {
        reply = { kind: 'text', text: 'The script has no more steps.', usage: { input: 0, output: 0 } };
      } else {
        reply = typeof step === 'function' ? step(request) : step;
        request.step = shape.toolResults;
      }
    }
    request.reply = reply;
    serial += 1;
    dialect.respond(res, reply, { servedModel: script.servedModel, stream: shape.stream, serial });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const socketPath = options.socketPath;
  if (socketServer && socketPath !== undefined) {
    await new Promise<void>((resolve, reject) => {
      socketServer.once('error', reject);
      socketServer.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o777);
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    unknown,
    scriptedReplies: () =>
      requests.flatMap((request) => (request.step === undefined || !request.reply ? [] : [request.reply])),
    close: async () => {
      await Promise.all(
        [server, socketServer].map(
          (each) =>
            new Promise<void>((resolve) => {
              if (!each?.listening) return resolve();
              each.closeAllConnections();
              each.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** Paths beside the model calls that agents ask for: token counts and model lists get plausible answers. */
function otherRoute(method: string, pathname: string, res: ServerResponse, unknown: string[]): void {
  // Claude Code checks that its base URL answers before it starts.
  if (method === 'HEAD') {
    res.writeHead(200).end();
    return;
  }
  if (method === 'POST' && pathname === '/v1/messages/count_tokens') {
    sendJson(res, 200, { input_tokens: 1 });
    return;
  }
  if (method === 'POST' && /:countTokens$/.test(pathname)) {
    sendJson(res, 200, { totalTokens: 1 });
    return;
  }
  unknown.push(`${method} ${pathname}`);
  sendJson(res, 404, { error: { type: 'not_found_error', message: `${method} ${pathname} is not scripted` } });
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
