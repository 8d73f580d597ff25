import { describe, expect, it } from 'vitest';
import { failureSummary } from './failure-lines.js';

// Outputs as the runners print them into a pipe (colours only where a runner forces them).

const PYTEST = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0
rootdir: /tmp/ws
collected 2 items

test_add.py .F                                                           [100%]

=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(1, 2) == 4
E       assert 3 == 4
E        +  where 3 = add(1, 2)

test_add.py:6: AssertionError
=========================== short test summary info ============================
FAILED test_add.py::test_add - assert 3 == 4
========================= 1 failed, 1 passed in 0.03s ==========================
`;

const VITEST = `
 RUN  v4.1.12 /tmp/ws

 ❯ src/add.test.ts (2 tests | 1 failed) 4ms
   ✓ adds zero 1ms
   × adds 3ms
     → expected 3 to be 4 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/add.test.ts > adds
AssertionError: expected 3 to be 4 // Object.is equality

- Expected
+ Received

- 4
+ 3

 ❯ src/add.test.ts:5:22
      3| test('adds zero', () => expect(add(1, 0)).toBe(1));
      4| test('adds', () => {
      5|   expect(add(1, 2)).toBe(4);
       |                      ^
      6| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
   Start at  10:00:00
   Duration  312ms (transform 20ms, setup 0ms, collect 10ms, tests 4ms, environment 0ms, prepare 60ms)
`;

const JEST = `FAIL ./add.test.js
  math
    ✓ adds zero (1 ms)
    ✕ adds (3 ms)

  ● math › adds

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 3

      3 | test('adds', () => {
    > 4 |   expect(add(1, 2)).toBe(4);
        |                     ^
      5 | });

      at Object.toBe (add.test.js:4:21)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Snapshots:   0 total
Time:        0.412 s
Ran all test suites.
`;

const GO_TEST = `--- FAIL: TestAdd (0.00s)
    add_test.go:10: Add(1, 2) = 3, want 4
FAIL
FAIL	example.com/add	0.002s
FAIL
`;

const CARGO = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.31s
     Running unittests src/lib.rs (target/debug/deps/add-1c2f)

running 2 tests
test tests::adds_zero ... ok
test tests::adds ... FAILED

failures:

---- tests::adds stdout ----

thread 'tests::adds' panicked at src/lib.rs:12:9:
assertion \`left == right\` failed
  left: 3
 right: 4
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::adds

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--lib\`
`;

describe('failureSummary', () => {
  it("gives pytest's failed test with its reason", () => {
    expect(failureSummary(PYTEST)).toBe('FAILED test_add.py::test_add - assert 3 == 4');
  });

  it("gives Vitest's failed test and its assertion, not the progress or the totals", () => {
    expect(failureSummary(VITEST)).toBe(
      'FAIL src/add.test.ts > adds | AssertionError: expected 3 to be 4 // Object.is equality',
    );
  });

  it("gives Jest's failed test with the expected and received values", () => {
    expect(failureSummary(JEST)).toBe('● math › adds | Expected: 4 | Received: 3');
  });

  it("gives go test's failed test and the line that says why", () => {
    expect(failureSummary(GO_TEST)).toBe('--- FAIL: TestAdd (0.00s) | add_test.go:10: Add(1, 2) = 3, want 4');
  });

  it("gives cargo's failed test and its panic", () => {
    expect(failureSummary(CARGO)).toBe(
      "test tests::adds ... FAILED | thread 'tests::adds' panicked at src/lib.rs:12:9: | assertion `left == right` failed",
    );
  });

  it("gives a Python traceback's failing assertion and its error", () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "/tmp/ws/check.py", line 3, in <module>',
      '    assert open("out.txt").read() == "hi\\n"',
      'AssertionError: wrong greeting',
      '',
    ].join('\n');
    expect(failureSummary(output)).toBe('assert open("out.txt").read() == "hi\\n" | AssertionError: wrong greeting');
  });

  it("gives a plain script's last line when no runner's words are in it", () => {
    expect(failureSummary('checking out.txt\nout.txt is missing the greeting\n\n')).toBe(
      'out.txt is missing the greeting',
    );
  });

  it('strips colours, and cuts very long lines', () => {
    expect(failureSummary('\u001b[31mFAILED\u001b[39m t.py::x - boom\n')).toBe('FAILED t.py::x - boom');
    const long = failureSummary(`Error: ${'x'.repeat(500)}`);
    expect(long?.length).toBe(200);
    expect(long?.endsWith('…')).toBe(true);
  });

  it('is undefined when the output says nothing', () => {
    expect(failureSummary('')).toBeUndefined();
    expect(failureSummary('\n  \n=====\n')).toBeUndefined();
  });
});
