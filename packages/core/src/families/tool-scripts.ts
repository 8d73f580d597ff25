import { TOOL_SLOTS } from './tool-server.js';

/** The variable that tells a family's tools where the case's tool server has its FIFOs. */
export const TOOL_DIR_ENV = 'GZ_BENCH_TOOLS';
/** The variable that tells a family's tools where to take their reply slots (in the case area). */
export const TOOL_SLOTS_ENV = 'GZ_BENCH_TOOL_SLOTS';
/** The longest argument a tool sends: with a multibyte character set, a request stays below PIPE_BUF. */
export const MAX_TOOL_ARG_CHARS = 1000;

/**
 * The program `tools/<name>` in a family workspace: a thin POSIX shell client that sends its one
 * argument to the case's tool server and prints the reply (see tool-server.ts for the exchange). It
 * holds nothing of the task, so the same file serves every seed and size. A shell, not Node: a call
 * then costs a few milliseconds, not a runtime's start.
 */
export function toolScript(name: string): string {
  return `#!/bin/sh
# ${name}: a tool of a gz-bench task. It asks the harness, which holds the task's data, and prints the reply.
tool=${name}
if [ "$#" -ne 1 ] || [ -z "$1" ]; then echo "usage: $tool ARG" >&2; exit 2; fi
if [ -z "$${TOOL_DIR_ENV}" ] || [ -z "$${TOOL_SLOTS_ENV}" ]; then
  echo "$tool: ${TOOL_DIR_ENV} is not set: this tool works only inside its gz-bench case" >&2
  exit 2
fi
case $1 in *'
'*) echo "$tool: ARG must be one line" >&2; exit 2 ;; esac
if [ "\${#1}" -gt ${MAX_TOOL_ARG_CHARS} ]; then echo "$tool: ARG is longer than ${MAX_TOOL_ARG_CHARS} characters" >&2; exit 2; fi
if [ ! -p "$${TOOL_DIR_ENV}/requests" ] || [ ! -d "$${TOOL_SLOTS_ENV}" ]; then
  echo "$tool: cannot reach the task server (it is gone)" >&2
  exit 3
fi
# A reply slot of this call's own: mkdir makes the slot's directory for one caller only. Starting
# from the pid spreads calls made at once over the slots.
slot=$(($$ % ${TOOL_SLOTS}))
tries=0
until mkdir "$${TOOL_SLOTS_ENV}/$slot" 2>/dev/null; do
  tries=$((tries + 1))
  if [ "$tries" -ge ${TOOL_SLOTS} ]; then echo "$tool: all ${TOOL_SLOTS} reply slots are taken" >&2; exit 3; fi
  slot=$(((slot + 1) % ${TOOL_SLOTS}))
done
trap 'rmdir "$${TOOL_SLOTS_ENV}/$slot" 2>/dev/null' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# Opened before the request goes out, so the reply waits in the FIFO for this call.
exec 3<>"$${TOOL_DIR_ENV}/r$slot"
printf '%s %s %s\\n' "$slot" "$tool" "$1" >"$${TOOL_DIR_ENV}/requests"
if ! IFS=' ' read -r code count <&3; then echo "$tool: the task server gave no reply" >&2; exit 3; fi
out=1
[ "$code" = 0 ] || out=2
while [ "$count" -gt 0 ] && IFS= read -r line <&3; do
  printf '%s\\n' "$line" >&"$out"
  count=$((count - 1))
done
exit "$code"
`;
}
