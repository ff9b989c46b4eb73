/**
 * The part of autocannon 8's programmatic API the benchmarks use (the package ships no types; @types/autocannon
 * lags behind). See node_modules/autocannon/README.md "API".
 */
declare module "autocannon" {
  /** Percentile summary of one histogram (latency in ms, requests in req/s, throughput in bytes/s). */
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    total: number;
    sent?: number;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    /** Worker threads that generate the load (0: the calling thread). */
    workers?: number;
    /** A run before the measured one whose figures are discarded. */
    warmup?: { connections?: number; duration?: number };
    title?: string;
  }

  interface Result {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Histogram, Options, Result };
}
