/** The token figures one scripted reply reports, as the API's own usage fields count them. */
export interface ReplyUsage {
  /** Input tokens as the API reports them (Anthropic: uncached input; the others: all input). */
  input: number;
  output: number;
  /** Input tokens read from the cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`, Gemini `cachedContentTokenCount`). */
  cachedInput?: number;
  /** Anthropic `cache_creation_input_tokens`. */
  cacheWrite?: number;
}

/** A reply that calls one tool of the agent's own, with JSON arguments. */
export interface ToolReply {
  kind: 'tool';
  name: string;
  arguments: Record<string, unknown>;
  usage: ReplyUsage;
}

/** A final reply of plain text. */
export interface TextReply {
  kind: 'text';
  text: string;
  usage: ReplyUsage;
}

/** One scripted reply. */
export type Reply = ToolReply | TextReply;

/** The API a request came in through. */
export type ModelApi = 'anthropic' | 'responses' | 'chat' | 'gemini';

/** A request the endpoint received, as the test sees it in the log. */
export interface ModelRequest {
  api: ModelApi;
  method: string;
  /** The path and query. */
  url: string;
  /** The model the request asked for. */
  model: string | undefined;
  stream: boolean;
  /** Names of the tools the request offers the model. */
  toolNames: string[];
  /** Tool results already in the conversation: the number of scripted replies it has had. */
  toolResults: number;
  /** A request that offers no tools (a title, a summary, a check): answered with `sideReply`, outside the script. */
  side: boolean;
  /** Which scripted reply answered it (from 0); absent for side requests and for those past the script. */
  step?: number;
  /** The reply it got. */
  reply?: Reply;
  /** The request body as parsed JSON (undefined when it was not JSON). */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** A scripted reply, or a function that picks it from the request (e.g. by the tools it offers). */
export type ScriptStep = Reply | ((request: ModelRequest) => Reply);

/** A conversation the endpoint plays: the n-th reply answers the request that carries n tool results. */
export interface ModelScript {
  steps: ScriptStep[];
  /** The model the endpoint says served every reply. */
  servedModel: string;
  /** The reply to side requests; by default `ok` with no tokens, so that script figures stay exact. */
  sideReply?: TextReply;
}

/** Adds up the usage of replies, as the tests expect an agent to report it. */
export function totalUsage(replies: Reply[]): Required<ReplyUsage> {
  const total = { input: 0, output: 0, cachedInput: 0, cacheWrite: 0 };
  for (const { usage } of replies) {
    total.input += usage.input;
    total.output += usage.output;
    total.cachedInput += usage.cachedInput ?? 0;
    total.cacheWrite += usage.cacheWrite ?? 0;
  }
  return total;
}
