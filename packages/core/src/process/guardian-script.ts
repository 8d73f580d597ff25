// The guardian itself (see guardian.ts): a POSIX shell script, about a megabyte of memory where a
// `node` process took 45. It reads its harness process's messages on stdin, one a line:
//   add|remove group <pgid>     a process group of a running command
//   add|remove token <token>    a case token, for processes that left their group
//   add|remove dir <path>       a case area or cache dir (absolute, no newline)
//   watch <pid>                 once that process is gone, SIGKILL the harness process
// and when stdin closes (the harness process died, however it died, or exited), it kills those groups
// and token carriers and removes those directories, then exits. What it acts on with SIGKILL and
// recursive removal is checked here, as it arrives: group ids above 1 (never -1 or 0, which mean
// every process or this group), tokens of 32 hex digits, absolute paths other than `/`. An area that
// is marked kept (kept.json) stays.
//
// $0 is the guardian's name, $1 `run`, or `print` for its tests: then it prints what it would do
// (`kill <pgid>`, `sweep <token>…`, `remove <dir>`, `kill-guarded`) instead of doing it. (A template
// literal: `\${` is the shell's `${`.)
export const GUARDIAN_SCRIPT = `# gz-bench guardian: see guardian.ts in @gz-bench/core
set -f
mode=$1
nl='
'
guarded=$PPID
groups=' '
tokens=' '
dirs=$nl
watcher=

act() {
  if [ "$mode" = print ]; then printf '%s\n' "$*"; return 0; fi
  case $1 in
    kill) kill -KILL "-$2" 2>/dev/null ;;
    kill-guarded) kill -KILL "$guarded" 2>/dev/null ;;
    remove) remove_tree "$2" ;;
  esac
  return 0
}

# Sets st to the start time of process $1 (field 22 of /proc/<pid>/stat), empty when it is gone.
start_of() {
  st=
  line=
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 0
  set -- \${line##*) }
  case $1 in Z|X) return 0 ;; esac
  shift 19
  st=$1
}

# True while process $1, started at $2 (empty where /proc cannot tell), runs.
alive() {
  if [ -n "$2" ]; then
    start_of "$1"
    [ "$st" = "$2" ]
  else
    kill -0 "$1" 2>/dev/null
  fi
}

is_pid() {
  case $1 in '' | 0* | *[!0-9]*) return 1 ;; esac
  [ \${#1} -le 10 ] && [ "$1" -gt 1 ]
}

is_token() {
  case $1 in *[!0-9a-f]*) return 1 ;; esac
  [ \${#1} -eq 32 ]
}

is_dir() {
  case $1 in / | *"$nl"*) return 1 ;; /*) return 0 ;; esac
  return 1
}

watch() {
  start_of "$1"
  wst=$st
  while alive "$1" "$wst"; do sleep 0.2; done
  alive "$guarded" "$gst" && act kill-guarded
}

sweep() {
  if [ "$mode" = print ]; then act sweep $tokens; return 0; fi
  set --
  for token in $tokens; do set -- "$@" -e "GZ_BENCH_CASE_TOKEN=$token"; done
  tries=0
  while [ $tries -lt 40 ]; do
    set +f
    files=$(grep -lzxF "$@" /proc/[0-9]*/environ 2>/dev/null)
    set -f
    pids=
    for file in $files; do
      pid=\${file#/proc/}
      pid=\${pid%/environ}
      [ "$pid" = "$$" ] || pids="$pids $pid"
    done
    [ -n "$pids" ] || return 0
    kill -KILL $pids 2>/dev/null
    sleep 0.05
    tries=$((tries + 1))
  done
}

remove_tree() {
  [ -e "$1" ] || [ -L "$1" ] || return 0
  [ -f "$1/kept.json" ] && [ ! -L "$1/kept.json" ] && return 0
  rm -rf -- "$1" 2>/dev/null
  [ -e "$1" ] || [ -L "$1" ] || return 0
  # What rm could not enter (mode 000 for an ordinary user): owner rwx everywhere, then again. chmod
  # follows a symlink given as its operand, so it is given "." in the very directory, once it is known
  # to be no link: inside the tree it follows none.
  [ -d "$1" ] && [ ! -L "$1" ] || return 0
  chmod u+rwx -- "$1" 2>/dev/null
  (cd -- "$1" 2>/dev/null && [ "$(pwd -P)" = "$1" ] && chmod -R u+rwx . 2>/dev/null)
  rm -rf -- "$1" 2>/dev/null
}

finish() {
  [ -z "$watcher" ] || kill "$watcher" 2>/dev/null
  for group in $groups; do act kill "$group"; done
  [ "$tokens" = ' ' ] || sweep
  IFS=$nl
  set -- $dirs
  unset IFS
  for dir; do [ -z "$dir" ] || act remove "$dir"; done
  exit 0
}

start_of "$guarded"
gst=$st

while IFS= read -r line; do
  op=\${line%% *}
  rest=\${line#* }
  kind=\${rest%% *}
  value=\${rest#* }
  case "$op $kind" in
    'add group') is_pid "$value" && case $groups in *" $value "*) ;; *) groups="$groups$value " ;; esac ;;
    'remove group') case $groups in *" $value "*) groups="\${groups%%" $value "*} \${groups#*" $value "}" ;; esac ;;
    'add token') is_token "$value" && case $tokens in *" $value "*) ;; *) tokens="$tokens$value " ;; esac ;;
    'remove token') case $tokens in *" $value "*) tokens="\${tokens%%" $value "*} \${tokens#*" $value "}" ;; esac ;;
    'add dir') is_dir "$value" && case $dirs in *"$nl$value$nl"*) ;; *) dirs="$dirs$value$nl" ;; esac ;;
    'remove dir') case $dirs in *"$nl$value$nl"*) dirs="\${dirs%%"$nl$value$nl"*}$nl\${dirs#*"$nl$value$nl"}" ;; esac ;;
    'watch '*) is_pid "$rest" && [ -z "$watcher" ] && { watch "$rest" & watcher=$!; } ;;
  esac
done
finish
`;
