// The wire protocol of a run's slots (see node/slot-server.ts), spoken over one connection per slot:
//
//   client → server   one line, a JSON SlotRequest: {"token":"…","keys":["agent:claude"]}
//   server → client   "granted\n" once the slot is the client's, or "refused <reason>\n" and close
//   client            holds the slot for as long as the connection stays open; closing it (or dying,
//                     which closes it) releases the slot
//   server → client   "cancelled\n", to a holder or a waiter, once the run is cancelled (Ctrl-C):
//                     a holder stops its case, a waiter's case does not run
//
// Keeping the slot in the connection rather than in a message is what makes a killed worker give
// its slots back: the kernel closes its sockets, and the server sees them close. The token, which the
// workers get through Vitest's provide, keeps any other process that finds the socket (another user's,
// an agent's) from taking the run's slots.

/** What a client asks for: a slot of the run, counted also against the limit of each pool key it names. */
export interface SlotRequest {
  /** The run's token, as the server was started with. */
  token?: string;
  /**
   * Pools the slot also counts against, each with a limit of its own on the server (e.g. one per
   * provider, which rate-limits). A key without a limit there is bounded by the run's limit only.
   */
  keys?: string[];
}

/** The server's line for a granted slot. */
export const GRANTED_LINE = 'granted';
/** The server's line to every client once the run is cancelled. */
export const CANCELLED_LINE = 'cancelled';
/** The start of the server's line for a request it will not serve. */
export const REFUSED_PREFIX = 'refused ';
/** The longest request line a server reads; anything longer is not a request. */
export const MAX_REQUEST_BYTES = 4096;

/** The line a client sends. */
export function encodeSlotRequest(request: SlotRequest): string {
  return `${JSON.stringify({ token: request.token, keys: request.keys?.length ? request.keys : undefined })}\n`;
}

/** The request a line holds, or a reason why it holds none. */
export function parseSlotRequest(line: string): { token: string | undefined; keys: string[] } | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { invalid: 'the request is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { invalid: 'the request is not an object' };
  }
  const { token, keys, ...rest } = value as { token?: unknown; keys?: unknown };
  if (Object.keys(rest).length > 0) return { invalid: `unknown field "${Object.keys(rest)[0]}"` };
  if (token !== undefined && typeof token !== 'string') return { invalid: '"token" must be a string' };
  if (keys === undefined) return { token, keys: [] };
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' && key !== '')) {
    return { invalid: '"keys" must be a list of non-empty strings' };
  }
  return { token, keys: [...new Set(keys as string[])] };
}

/** The slot pool of one agent, whose limit is the agent's `concurrency`. */
export function agentPoolKey(name: string): string {
  return `agent:${name}`;
}
