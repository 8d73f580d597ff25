/**
 * The program of a match worker: it tests one regular expression per message and replies with the
 * outcome. It is passed as source (`eval: true`), not as a file beside this module, so it runs the
 * same from `src` in tests, from `dist`, and from a bundle that has no such file. It holds no user
 * text: patterns and input arrive as messages.
 */
export const MATCH_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ pattern, flags, text }) => {
  let reply;
  try {
    // A fresh RegExp per request, so a g or y flag cannot carry lastIndex from one match to the next.
    reply = { matched: new RegExp(pattern, flags).test(text) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
`;

/** What a match worker replies to one request. */
export type MatchWorkerReply = { matched: boolean; error?: undefined } | { error: string };

/** What a match worker is asked. */
export interface MatchWorkerRequest {
  pattern: string;
  flags: string | undefined;
  text: string;
}
