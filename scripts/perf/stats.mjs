// Medians and the least-squares line that split a run's wall time into fixed start-up and per-case cost.

/** The median of a non-empty list of numbers. */
export function median(values) {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The least-squares line through `points` ([x, y] pairs, at least two distinct x): slope and intercept. */
export function fitLine(points) {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  }
  if (sxx === 0) throw new Error('a line needs at least two distinct x');
  const slope = sxy / sxx;
  return { slope, intercept: meanY - slope * meanX };
}
