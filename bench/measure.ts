import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

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

/**
 * Median wall times of two calls timed in turns (one of each, `iterations` times, after `warmup`
 * turns): on a shared machine the load drifts over a run, and two medians taken one after the
 * other compare two different loads.
 */
export async function alternatingMediansMs(
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  { iterations = 20, warmup = 3 } = {},
): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < warmup + iterations; i++) {
    for (const [n, fn] of [first, second].entries()) {
      const start = performance.now();
      await fn();
      if (i >= warmup) samples[n]?.push(performance.now() - start);
    }
  }
  return [median(samples[0]), median(samples[1])];
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

let collect: (() => void) | undefined;

/** A full garbage collection, whether or not this process was started with --expose-gc. */
function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as () => void;
  }
  collect();
}

/**
 * The most JS heap kept alive above the heap at the start, in MB: a full collection now and at
 * each `sample()`, so it counts what the measured work holds, not when V8 chose to collect (which
 * is what RSS follows). Data the work's inputs leave behind must be unreachable before the start.
 */
export function retainedHeapAboveStart(): { sample: () => void; stop: () => number } {
  collectGarbage();
  const startHeap = process.memoryUsage().heapUsed;
  let peakHeap = startHeap;
  return {
    sample() {
      collectGarbage();
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    },
    stop() {
      return (peakHeap - startHeap) / (1024 * 1024);
    },
  };
}
