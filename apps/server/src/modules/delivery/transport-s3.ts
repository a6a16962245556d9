import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../../config';
import type { TargetSecret } from './targets';
import {
  byteCounter,
  errorField,
  join,
  type RemoteEntry,
  type Transport,
  UnreadableFileError,
} from './transport';

/** `lookup`: how the own endpoint's name is resolved (the address rules, record 227). */
export function s3Transport(secret: TargetSecret, config: Config, lookup?: LookupFunction): Transport {
  const url = new URL(secret.url);
  const Bucket = url.hostname;
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  const own = secret.s3 ?? {};
  const client = new S3Client({
    endpoint: own.endpoint ?? config.S3_ENDPOINT,
    region: own.region ?? config.S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: own.accessKeyId ?? config.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: own.secretAccessKey ?? config.S3_SECRET_ACCESS_KEY ?? '',
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The operator's own S3_ENDPOINT is trusted; a target's own endpoint resolves through the rules.
    ...(own.endpoint && lookup
      ? { requestHandler: { httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) } }
      : {}),
  });
  const key = (p: string) => join(prefix, p);
  return {
    async ensureDir() {},
    async putStream(file, body) {
      const counter = byteCounter();
      body.on('error', (error) => counter.destroy(error));
      body.pipe(counter);
      await new Upload({
        client,
        params: { Bucket, Key: key(file), Body: counter },
        partSize: 8 * 1024 * 1024,
      }).done();
      return counter.bytes;
    },
    async putText(file, text) {
      await client.send(new PutObjectCommand({ Bucket, Key: key(file), Body: text }));
    },
    async list(dir) {
      const base = `${key(dir)}/`;
      const out: RemoteEntry[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: base, Delimiter: '/', ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key) out.push({ name: item.Key.slice(base.length), size: item.Size ?? 0, isDir: false });
        }
        for (const p of page.CommonPrefixes ?? []) {
          if (p.Prefix)
            out.push({ name: p.Prefix.slice(base.length).replace(/\/$/, ''), size: 0, isDir: true });
        }
        token = page.NextContinuationToken;
      } while (token);
      return out;
    },
    async readBytes(file, maxBytes) {
      // At most one byte more than the limit is fetched (a Range), whatever size the object has.
      let result: GetObjectCommandOutput;
      try {
        result = await client.send(
          new GetObjectCommand({ Bucket, Key: key(file), Range: `bytes=0-${maxBytes}` }),
        );
      } catch (error) {
        // An empty object has no byte 0: S3 answers 416 to any range.
        if (errorField(errorField(error, '$metadata'), 'httpStatusCode') === 416) return Buffer.alloc(0);
        throw error;
      }
      const total = Number(/\/(\d+)$/.exec(result.ContentRange ?? '')?.[1] ?? result.ContentLength ?? 0);
      const bytes = Buffer.from((await result.Body?.transformToByteArray()) ?? new Uint8Array());
      const size = Math.max(total, bytes.length);
      if (size > maxBytes)
        throw new UnreadableFileError(
          `${file.split('/').pop()} is ${size} bytes, over the limit of ${maxBytes}; it was not read.`,
        );
      return bytes;
    },
    async remove(file) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(file) }));
    },
    // Objects have no folders to rename: each object appears whole when its PUT (or its multipart upload)
    // completes, so the package is written resources first and its message (or manifest) last.
    canRenameFolders: false,
    async rename() {
      throw new Error('S3 targets cannot rename a folder');
    },
    async removeTree(dir) {
      const base = `${key(dir)}/`;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: base, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key) await client.send(new DeleteObjectCommand({ Bucket, Key: item.Key }));
        }
        token = page.NextContinuationToken;
      } while (token);
    },
    async close() {
      client.destroy();
    },
  };
}
