import { performance } from "node:perf_hooks";

/** Median wall time of `iterations` calls after `warmup` unmeasured ones: robust to a stray GC pause. */
export async function medianMs(fn: () => Promise<unknown>, { iterations = 50, warmup = 5 } = {}): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/**
 * Samples this process's RSS every 10 ms from now (after a collection, when the process runs
 * with --expose-gc) until `stop`, which answers the peak above the RSS at the start, in MB.
 */
export function peakRssAboveIdle(): { stop: () => number } {
  global.gc?.();
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 10);
  return {
    stop() {
      clearInterval(sampler);
      sample();
      return (peakRss - idleRss) / (1024 * 1024);
    },
  };
}
