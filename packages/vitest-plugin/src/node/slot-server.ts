import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import {
  CANCELLED_LINE,
  GRANTED_LINE,
  MAX_REQUEST_BYTES,
  parseSlotRequest,
  REFUSED_PREFIX,
} from '../shared/slot-protocol.js';
import { type SlotLimits, SlotQueue } from './slot-queue.js';

const LISTEN_BACKLOG = 4096;

/** How a slot server serves. */
export interface SlotServerOptions {
  /** Serve only the requests that carry it. */
  token?: string;
  /** Connections the kernel holds for the server before it refuses more. @default 4096 */
  backlog?: number;
}

/** A run's slots, served on a local socket to the workers (protocol: shared/slot-protocol.ts). */
export interface SlotServer {
  /** Where clients connect: a Unix socket path, or a named pipe on Windows. */
  readonly path: string;
  /** Slots held now. */
  readonly held: number;
  /** Requests waiting now. */
  readonly waiting: number;
  /** Stops serving and drops every connection: waiting clients fail, holders lose nothing they need. */
  close(): Promise<void>;
  /**
   * The run was cancelled: tells every holder to stop its case and every waiter that its case does not
   * run, and answers later requests the same way.
   */
  cancel(): void;
}

/**
 * Listens on `path` and hands out at most `limits.total` slots at once (and at most a key's limit to
 * the requests naming it), one per connection, in the order they were asked for among those that can
 * be granted. A slot is free again the moment its connection closes, however the client ended.
 * With a `token`, only requests that carry it are served. Neither the server nor its connections
 * keep the process alive.
 */
export async function startSlotServer(
  path: string,
  limits: SlotLimits,
  { token, backlog = LISTEN_BACKLOG }: SlotServerOptions = {},
): Promise<SlotServer> {
  const queue = new SlotQueue<Socket>(limits);
  const sockets = new Set<Socket>();
  let cancelled = false;
  const pump = () => {
    // A cancelled run grants nothing more: its waiters were told their cases do not run.
    if (cancelled) return;
    for (const socket of queue.grant()) socket.write(`${GRANTED_LINE}\n`);
  };
  const server: Server = createServer((socket) => {
    socket.unref();
    sockets.add(socket);
    let buffered = '';
    let asked = false;
    const refuse = (reason: string) => socket.end(`${REFUSED_PREFIX}${reason}\n`);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (asked) return;
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end === -1) {
        if (buffered.length > MAX_REQUEST_BYTES) {
          asked = true;
          refuse('the request is too long');
        }
        return;
      }
      asked = true;
      const request = parseSlotRequest(buffered.slice(0, end));
      if ('invalid' in request) {
        refuse(request.invalid);
        return;
      }
      if (token !== undefined && !sameToken(request.token, token)) {
        refuse('wrong token');
        return;
      }
      if (cancelled) {
        socket.end(`${CANCELLED_LINE}\n`);
        return;
      }
      queue.request(socket, request.keys);
      pump();
    });
    // A client that ends its side releases its slot, or gives up waiting for one.
    socket.on('end', () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      queue.remove(socket);
      pump();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Every waiting case holds a connection, and a burst of them may arrive while this process is
    // busy: a Unix socket refuses connections past its backlog at once (EAGAIN) instead of queueing
    // them. The kernel caps the backlog at net.core.somaxconn (4096 by default since Linux 5.4).
    server.listen({ path, backlog }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  return {
    path,
    get held() {
      return queue.held;
    },
    get waiting() {
      return queue.waiting;
    },
    cancel() {
      cancelled = true;
      // Only to clients that asked: one still sending its request hears it as the reply.
      for (const socket of sockets) if (queue.has(socket)) socket.write(`${CANCELLED_LINE}\n`);
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
