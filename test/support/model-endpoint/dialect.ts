import type { ServerResponse } from 'node:http';
import type { ModelApi, Reply } from './script.js';

/** What the endpoint needs to know of a request to pick its reply. */
export interface RequestShape {
  model: string | undefined;
  stream: boolean;
  toolNames: string[];
  toolResults: number;
}

/** One API the endpoint speaks: which requests are its own, how to read them, how to answer. */
export interface Dialect {
  api: ModelApi;
  /** Whether the request is this API's model call (other paths of the API get `otherRoute`). */
  matches(method: string, pathname: string): boolean;
  describe(body: unknown, pathname: string, search: URLSearchParams): RequestShape;
  respond(res: ServerResponse, reply: Reply, context: ReplyContext): void;
}

/** What every reply carries beside the script's own content. */
export interface ReplyContext {
  servedModel: string;
  stream: boolean;
  /** Distinct per reply, for ids. */
  serial: number;
}

/** A record (object) or undefined, for reading request bodies without casts. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An array or an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field or undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
