import type { ServerResponse } from 'node:http';

/** Starts a server-sent event stream. */
export function startEvents(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** Writes one event: `event:` when named (Anthropic, Responses), `data:` alone otherwise (chat, Gemini). */
export function sendEvent(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`);
}

/** Writes a whole JSON response. */
export function sendJson(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
