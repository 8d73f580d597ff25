// What a failed check's command said about its failure, in its own words: test runners print the
// failed test and the assertion near the end, between progress, decoration and timing lines. These
// rules pick those lines out of pytest, Vitest, Jest, go test, cargo test and plain scripts' output.

/** At most this many lines make a summary; more would not fit a table row or a one-line error. */
const MAX_LINES = 3;
/** A line longer than this is cut: a minified stack or a data dump says nothing more past it. */
const MAX_LINE_CHARS = 200;

// Control sequences (colours, cursor moves) that runners print even into a pipe when forced.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the escape sequences to remove.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*(?:\u0007|\u001b\\)/g;

/** Lines that name what failed: a test, a file, a panic. */
const FAILED_TEST = [
  /^(FAILED|ERROR) \S/, // pytest's short test summary: FAILED test_x.py::test_add - AssertionError: …
  /^\s*(FAIL|×|✗|✕)\s+\S.*(>|›)/, // Vitest and Jest: FAIL src/add.test.ts > adds, × adds
  /^\s*● .*›|^\s*● \S/, // Jest: ● math › adds
  /^\s*--- FAIL: \S/, // go test: --- FAIL: TestAdd (0.00s)
  /^test \S+ \.\.\. FAILED$/, // cargo test: test tests::adds ... FAILED
  /panicked at /, // Rust: thread 'tests::adds' panicked at src/lib.rs:4:5:
];

/** Lines that say why: an assertion, an error, the expected and actual values. */
const REASON = [
  /^E\s+\S/, // pytest's assertion lines: E       assert 3 == 4
  /\b\w*(Error|Exception)\b(:|$)/, // AssertionError: …, TypeError: …, Error: …
  /^\s*assert(ion)?\b/i, // assertion `left == right` failed, assert 3 == 4
  /^\s*(Expected|Received|expected|actual|left|right)\b\s*:?/, // Jest, Vitest and cargo's values
  /^\s+\S+_test\.go:\d+: /, // go test: add_test.go:10: got 3, want 4
  /^\s*(error|fatal)(\[\w+\])?: /i, // compilers and tools: error[E0308]: mismatched types
  /^Traceback \(most recent call last\)/,
];

/** Lines that carry nothing: rules, bare verdicts, counts and timings. */
const NOISE = [
  /^[\s=\-_~*#.⎯─━•·+|]*$/, // rules and blank lines
  /^\s*(PASS|ok|FAIL|FAILED)\s*$/, // a bare verdict, the same for every failure
  /^\s*(PASS|ok|✓|√)\s/, // passing tests
  /^\s*(Test Files|Tests|Start at|Duration|Time|Ran \d+ tests?|Snapshots|Test Suites)\b/, // totals
  /^\s*=+ .* =+\s*$/, // pytest's section headers: ===== 1 failed in 0.02s =====
  /^\s*(error: test failed|exit status \d+|FAIL\s+\S+\s+[\d.]+s)\s*/, // cargo's and go's trailers
  /^\s*at .*(:\d+|\(.+\))\)?$/, // stack frames
  /^\s*❯ /, // Vitest's code-frame arrows
  /^\s*\d+\s*\|/, // code frames' numbered lines
];

function clean(text: string): string[] {
  return text
    .replace(ANSI, '')
    .split(/\r?\n|\r/)
    .map((line) => line.trimEnd());
}

const matchesAny = (patterns: readonly RegExp[], line: string) => patterns.some((pattern) => pattern.test(line));

function shorten(line: string): string {
  const trimmed = line.trim().replace(/\s+/g, ' ');
  const chars = Array.from(trimmed);
  return chars.length <= MAX_LINE_CHARS ? trimmed : `${chars.slice(0, MAX_LINE_CHARS - 1).join('')}…`;
}

/**
 * The lines of `output` that say what failed, joined by ` | `: the failed tests and the reasons that
 * follow them, else the last lines that carry something; undefined when the output says nothing.
 */
export function failureSummary(output: string): string | undefined {
  const lines = clean(output).filter((line) => !matchesAny(NOISE, line));
  if (lines.length === 0) return undefined;
  const picked: string[] = [];
  const add = (line: string) => {
    const short = shorten(line);
    // A runner that repeats a failure (Vitest's list, then its detail) says it once here.
    if (!picked.some((seen) => seen === short || seen.includes(short))) picked.push(short);
  };
  // Runners list the failed tests last (pytest, cargo) or first (Vitest, Jest, go): either way the
  // first failed test and what follows it (its reason, the next failed test) tell the most.
  const failedAt = lines.findIndex((line) => matchesAny(FAILED_TEST, line));
  if (failedAt !== -1) {
    add(lines[failedAt] as string);
    for (const line of lines.slice(failedAt + 1)) {
      if (picked.length >= MAX_LINES) break;
      if (matchesAny(REASON, line) || matchesAny(FAILED_TEST, line)) add(line);
    }
    return picked.join(' | ');
  }
  for (const line of lines) {
    if (picked.length >= MAX_LINES) break;
    if (matchesAny(REASON, line) && !/^Traceback/.test(line)) add(line);
  }
  if (picked.length > 0) return picked.join(' | ');
  // No runner's words: the last line said is the likeliest to say why.
  return shorten(lines.at(-1) as string);
}
