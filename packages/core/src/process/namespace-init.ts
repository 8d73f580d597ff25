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
//
// The locale: `unshare` sets its locale from the environment, and with LANG or an LC_* variable set
// glibc reads some twenty locale files first (0.17 ms of every contained command on 2 cores, against
// one without them). So the launcher gets those variables renamed (`launcherEnv`), and the init sets
// them back, as they were, before it starts the command.

/** The init's name in its command line (`ps`), as its `$0`. */
export const INIT_NAME = 'gz-bench-init';

/** The variables glibc's setlocale reads: what the launcher gets renamed. */
const LOCALE_VARIABLES = [
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_COLLATE',
  'LC_MONETARY',
  'LC_MESSAGES',
  'LC_PAPER',
  'LC_NAME',
  'LC_ADDRESS',
  'LC_TELEPHONE',
  'LC_MEASUREMENT',
  'LC_IDENTIFICATION',
] as const;

/** What a locale variable is called on its way through the launcher. */
const HANDED_PREFIX = 'GZ_BENCH_INIT_';

/**
 * The environment to start a launcher with that runs the init (INIT_ARGV): `env` with its locale
 * variables renamed, which the init gives the command back under their own names.
 */
export function launcherEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const launcher: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    launcher[(LOCALE_VARIABLES as readonly string[]).includes(name) ? `${HANDED_PREFIX}${name}` : name] = value;
  }
  return launcher;
}

// Only the fixed names above go through eval; a value is only ever expanded in an assignment, never
// read as code.
const RESTORE_LOCALE = [
  `for v in ${LOCALE_VARIABLES.join(' ')}; do`,
  `  eval "[ -z \\"\\\${${HANDED_PREFIX}$v+x}\\" ] || { $v=\\$${HANDED_PREFIX}$v; export $v; unset ${HANDED_PREFIX}$v; }"`,
  'done',
].join('\n');

const INIT_SCRIPT = [
  RESTORE_LOCALE,
  "trap 'terminating=1' TERM",
  'exec 3>&2 2>/dev/null',
  '(trap - TERM; exec "$@" 2>&3 3>&-)',
  'status=$?',
  '[ -z "$terminating" ] || exec sleep 86400',
  'exit $status',
].join('\n');

/** The init's argv, put before `/bin/sh -c <command>`. */
export const INIT_ARGV: readonly string[] = ['/bin/sh', '-c', INIT_SCRIPT, INIT_NAME];
