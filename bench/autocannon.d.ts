// The part of autocannon's programmatic API bench/api.ts uses (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export interface RawRequest {
    path?: string;
    method?: string;
  }
  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    requests?: { path?: string; setupRequest?: (request: RawRequest) => RawRequest }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
