// Percentiles and timing helpers shared by every suite.

/** Nearest-rank percentile of a list of numbers (p in 0..100). */
export function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

export const round = (value, digits = 1) => (value === null || value === undefined ? null : Number(value.toFixed(digits)));

/** p50/p95/min/max of a sample of durations, rounded to 0.1 ms. */
export function summarize(samples) {
  if (!samples.length) return null;
  return {
    n: samples.length,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
  };
}

export const now = () => performance.now();

/** Runs `fn` and returns [result, elapsed ms]. */
export async function timed(fn) {
  const start = now();
  const result = await fn();
  return [result, now() - start];
}
