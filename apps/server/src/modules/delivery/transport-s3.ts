import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../../config';
import type { TargetSecret } from './targets';
import { byteCounter, join, type RemoteEntry, type Transport } from './transport';

export function s3Transport(secret: TargetSecret, config: Config): Transport {
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
    async readText(file, maxBytes) {
      const result = await client.send(new GetObjectCommand({ Bucket, Key: key(file) }));
      const text = (await result.Body?.transformToString()) ?? '';
      return text.slice(0, maxBytes);
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
