/** The part of autocannon's API the benches use (it ships no types of its own). */
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Fire from this many worker threads (record 208: off the server's event loop). */
    workers?: number;
  };
  type Histogram = { average: number; p50: number; p99: number };
  type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
