// The init gz-bench puts between a pid namespace and the command: `unshare` makes it pid 1 of the
// namespace, bwrap runs it as pid 2 under its own pid 1. Either way the command runs as its child,
// never by exec, for two reasons:
// - pid 1 of a namespace is special: the kernel drops every signal sent to it from outside but
//   SIGKILL, unless it has a handler. As the init's child, the command gets the process group's
//   SIGTERM on a timeout as it would outside a namespace.
// - the namespace ends when its pid 1 does, and bwrap's pid 1 ends with its child: were the command
//   that child, then the moment it ended (a shell dies of SIGTERM at once), the rest of its tree would
//   be SIGKILLed, its grace period cut short. So the init outlives a command that is being ended: it
//   traps SIGTERM, and once the command has exited it becomes `sleep`, which keeps the namespace until
//   the harness sees that nothing else of the command runs, or the grace period is over, and SIGKILLs
//   it. A command that ends on its own is followed by the init at once, with its exit status.
// Since pid 1 cannot die of a signal, a command ended by one exits with 128+n, as a shell reports it.
// The init's own stderr goes to /dev/null, or it would add `Terminated` to the command's output when
// the command dies of a signal; the command gets the real stderr back (kept on fd 3 meanwhile) in a
// subshell that execs it, so that the redirection is the command's alone, with no extra process.

/** The init's name in its command line (`ps`), as its `$0`. */
export const INIT_NAME = 'gz-bench-init';

const INIT_SCRIPT = [
  "trap 'terminating=1' TERM",
  'exec 3>&2 2>/dev/null',
  '(trap - TERM; exec "$@" 2>&3 3>&-)',
  'status=$?',
  '[ -z "$terminating" ] || exec sleep 86400',
  'exit $status',
].join('\n');

/** The init's argv, put before `/bin/sh -c <command>`. */
export const INIT_ARGV: readonly string[] = ['/bin/sh', '-c', INIT_SCRIPT, INIT_NAME];
