/** The part of s3rver (an S3 server for tests; it ships no types) the storage tests use. */
declare module 's3rver' {
  type S3rverOptions = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  };
  /** The Koa context s3rver's middleware sees (s3rver is a Koa application). */
  export type KoaContext = {
    method: string;
    path: string;
    querystring: string;
    query: Record<string, string | string[] | undefined>;
    get(header: string): string;
    status: number;
    type: string;
    body: unknown;
  };
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list, composed when the server starts listening. */
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
