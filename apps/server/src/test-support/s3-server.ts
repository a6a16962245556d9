/**
 * The S3 server of the tests: s3rver (a real HTTP S3 peer on loopback, objects on disk) with the two
 * multipart calls it lacks and @tus/s3-store needs, ListParts (resuming an upload) and
 * AbortMultipartUpload (discarding one), added in front of its router (decision 157). Every request
 * is recorded, so a test can see which calls a feature made (ranged reads, no whole-object GET).
 *
 * Other processes (the scale-out test's app instances) reach it through `env`.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver, { type KoaContext } from 's3rver';

export type S3Request = { method: string; path: string; query: string; range: string | undefined };

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point an app (in this process or another) at this server and bucket. */
  env: Record<
    'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY',
    string
  >;
  /** Every request the server answered, oldest first. */
  requests: S3Request[];
  /** The keys of the bucket's objects (finished multipart uploads included). */
  listKeys(): Promise<string[]>;
  /** The multipart uploads still open in the bucket. */
  openMultipartUploads(): Promise<number>;
  close(): Promise<void>;
};

export type S3TestServerOptions = {
  bucket?: string;
  /** Where s3rver keeps the objects; a new temp folder (removed on close) by default. */
  directory?: string;
  /** 0 (default) picks a free port. */
  port?: number;
};

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function sendXml(ctx: KoaContext, status: number, xml: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

const noSuchUpload = (ctx: KoaContext, uploadId: string) =>
  sendXml(
    ctx,
    404,
    `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xmlEscape(uploadId)}</UploadId></Error>`,
  );

export async function startS3TestServer(options: S3TestServerOptions = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'tunedrop-test';
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const requests: S3Request[] = [];
  // s3rver keeps the parts of an open multipart upload in <bucket>/<uploadId>._S3rver_uploads/.
  const uploadDir = (uploadId: string) =>
    path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);

  const shim = async (ctx: KoaContext, next: () => Promise<void>) => {
    requests.push({
      method: ctx.method,
      path: ctx.path,
      query: ctx.querystring,
      range: ctx.get('range') || undefined,
    });
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    const [, requestBucket, ...keyParts] = ctx.path.split('/');
    if (!uploadId || requestBucket !== bucket || keyParts.length === 0 || !/^[a-f0-9]+$/.test(uploadId)) {
      return next();
    }
    const key = decodeURIComponent(keyParts.join('/'));
    const dir = uploadDir(uploadId);
    const storedKey = await fsp.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
    if (ctx.method === 'GET') {
      // ListParts: https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListParts.html
      if (storedKey !== key) return noSuchUpload(ctx, uploadId);
      const marker = Number(ctx.query['part-number-marker'] ?? 0);
      const maxParts = Math.min(Number(ctx.query['max-parts'] ?? 1000), 1000);
      const numbers = (await fsp.readdir(dir))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .filter((number) => number > marker)
        .sort((a, b) => a - b);
      const page = numbers.slice(0, maxParts);
      const parts = await Promise.all(
        page.map(async (number) => {
          const file = path.join(dir, String(number));
          const [stat, md5] = await Promise.all([fsp.stat(file), fsp.readFile(`${file}.md5`, 'utf8')]);
          return `<Part><PartNumber>${number}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`;
        }),
      );
      const isTruncated = numbers.length > page.length;
      return sendXml(
        ctx,
        200,
        `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId>` +
          `<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${page.at(-1) ?? marker}</NextPartNumberMarker>` +
          `<MaxParts>${maxParts}</MaxParts><IsTruncated>${isTruncated}</IsTruncated>${parts.join('')}</ListPartsResult>`,
      );
    }
    if (ctx.method === 'DELETE') {
      // AbortMultipartUpload: https://docs.aws.amazon.com/AmazonS3/latest/API/API_AbortMultipartUpload.html
      if (storedKey !== key) return noSuchUpload(ctx, uploadId);
      await fsp.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return next();
  };
  // Koa composes its middleware when the server starts listening, so the shim runs before the router.
  server.middleware.unshift(shim);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucketDir = path.join(directory, bucket);

  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    requests,
    async listKeys() {
      const keys: string[] = [];
      const walk = async (dir: string, prefix: string) => {
        for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
          const match = /^(.*)\._S3rver_object$/.exec(entry.name);
          if (match?.[1] !== undefined && entry.isFile()) keys.push(prefix + match[1]);
          else if (entry.isDirectory() && !entry.name.includes('._S3rver_')) {
            await walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
          }
        }
      };
      await walk(bucketDir, '');
      return keys.sort();
    },
    async openMultipartUploads() {
      const dir = server.store.getResourcePath(bucket, undefined, 'uploads');
      return (await fsp.readdir(dir).catch(() => [])).length;
    },
    async close() {
      await server.close();
      if (ownDirectory) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
