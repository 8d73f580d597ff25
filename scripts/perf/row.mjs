// One line of the table: what is measured, the baseline of the same run, gz-bench's figure, their
// ratio (or the absolute value where the target is absolute), the target, and whether it is met.

/** A measured row; `met` is decided by the caller against the target, never adjusted. */
export function measuredRow({ id, what, baseline, figure, value, target, met }) {
  return { id, what, baseline, figure, value, target, result: met ? 'met' : 'MISSED' };
}

/** A row for information only: no target applies to it. */
export function infoRow({ id, what, baseline, figure, value }) {
  return { id, what, baseline, figure, value, target: '—', result: 'info' };
}

/**
 * A row that could not be measured, with the reason as the tool or the harness gave it. A harness
 * shortfall (a flag it refuses, cases that fail) misses its target; a machine without the feature
 * (no working bubblewrap) is `n/a`.
 */
export function unavailableRow({ id, what, target, reason, missed = true }) {
  const cell = `not available: ${reason.replace(/\|/g, '\\|')}`;
  return { id, what, baseline: '—', figure: cell, value: '—', target, result: missed ? 'MISSED' : 'n/a' };
}

export const ms = (value) => `${value.toFixed(Math.abs(value) < 10 ? 2 : 1)} ms`;
export const seconds = (ms_) => `${(ms_ / 1000).toFixed(2)} s`;
export const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
export const times = (ratio) => `${ratio.toFixed(2)}×`;
/** A duration in ms below a second, in seconds above. */
export const duration = (ms_) => (Math.abs(ms_) < 1000 ? ms(ms_) : seconds(ms_));
/** `count` and the word, in the plural unless one. */
export const plural = (count, word) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;
