import { connect } from 'node:net';
import {
  CANCELLED_LINE,
  encodeSlotRequest,
  GRANTED_LINE,
  REFUSED_PREFIX,
  type SlotRequest,
} from '../shared/slot-protocol.js';

/** A slot of the run, held until released. */
export interface Slot {
  /** Gives the slot back; safe to call more than once. */
  release(): void;
}

/** The run's slot server could not be reached or would not serve the request; the message says why. */
export class SlotError extends Error {
  override name = 'SlotError';
}

/** The run was cancelled (Ctrl-C) while the case waited for its slot: the case does not run. */
export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
  constructor() {
    super('the run was cancelled first');
  }
}

/** What `acquireSlot` needs besides the server's path. */
export interface AcquireOptions extends SlotRequest {
  /** Gives up waiting when aborted: rejects with the signal's reason, and nothing is held. */
  signal?: AbortSignal;
  /** Called once if the run is cancelled while the slot is held: the case should stop. */
  onCancel?: () => void;
}

/**
 * Waits for a slot of the run from the server at `path` (node/slot-server.ts). The slot is held by
 * the connection: release it when the case has cleaned up. Should this process die, the connection
 * closes and the server frees the slot.
 */
export async function acquireSlot(path: string, options: AcquireOptions = {}): Promise<Slot> {
  const deadline = Date.now() + BUSY_RETRY_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    try {
      return await requestSlot(path, options);
    } catch (error) {
      if (!(error instanceof ServerBusy)) throw error;
      // The server's backlog was full (a burst of requests while its process was busy): ask again.
      if (Date.now() > deadline) throw error.slotError;
      // Spread out, or the clients of one burst would all come back at the same moment.
      await abortableDelay(pause / 2 + Math.random() * pause, options.signal);
    }
  }
}

// How long a client keeps asking a server too busy to take its connection.
const BUSY_RETRY_MS = 60_000;

/** The server's backlog was full: a connection may succeed a moment later. */
class ServerBusy extends Error {
  constructor(readonly slotError: SlotError) {
    super(slotError.message);
  }
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function requestSlot(path: string, options: AcquireOptions): Promise<Slot> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<Slot>((resolve, reject) => {
    const socket = connect(path);
    let replied = '';
    let settled = false;
    const release = () => socket.destroy();
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(encodeSlotRequest(options)));
    socket.on('data', (chunk: string) => {
      replied += chunk;
      if (settled) {
        // After the grant, the server says one thing only: the run was cancelled.
        if (replied.split('\n').includes(CANCELLED_LINE)) {
          replied = '';
          options.onCancel?.();
        }
        return;
      }
      const end = replied.indexOf('\n');
      if (end === -1) return;
      const line = replied.slice(0, end);
      replied = replied.slice(end + 1);
      if (line === CANCELLED_LINE) return fail(new RunCancelledError());
      if (line !== GRANTED_LINE) {
        const reason = line.startsWith(REFUSED_PREFIX) ? line.slice(REFUSED_PREFIX.length) : `it answered "${line}"`;
        return fail(new SlotError(`gz-bench: the run's slot server refused a slot: ${reason}`));
      }
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve({ release });
      if (replied.split('\n').includes(CANCELLED_LINE)) queueMicrotask(() => options.onCancel?.());
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const unreachable = new SlotError(
        `gz-bench: cannot reach the run's slot server at ${printable(path)}: ${error.message}`,
      );
      fail(error.code === 'EAGAIN' ? new ServerBusy(unreachable) : unreachable);
    });
    socket.on('close', () => fail(new SlotError('gz-bench: the run ended while the case waited for a slot')));
  });
}

/** A socket path as a line can show it: an abstract socket's leading NUL as `@`, as ss(8) does. */
function printable(path: string): string {
  return path.replaceAll('\0', '@');
}
