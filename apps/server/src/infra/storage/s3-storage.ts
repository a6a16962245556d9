/**
 * Storage in an S3-compatible bucket (AWS SDK v3), used when every S3_* variable is set. Files are
 * streamed in both directions (multipart upload from disk or from a stream, streamed downloads); signed
 * URLs let a browser fetch one object for a limited time.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition } from '../../lib/content-disposition';
import { errorName, httpStatusOf } from '../../lib/error-fields';
import { notFound } from '../../lib/errors';
import { assertSafeKey, type Storage } from './storage';

export type S3StorageOptions = {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need; default true. */
  forcePathStyle?: boolean;
};

type S3Settings = {
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
};

/**
 * The bucket's options from the S3_* settings, or null when S3 is not configured (no S3_BUCKET).
 * config.ts guarantees all five or none; a partial set here is a bug, and throws.
 */
export function s3OptionsFrom(config: S3Settings): S3StorageOptions | null {
  const { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: region } = config;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket) return null;
  if (!endpoint || !region || !accessKeyId || !secretAccessKey)
    throw new Error(
      'S3_BUCKET is set without all of S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  return { bucket, endpoint, region, accessKeyId, secretAccessKey };
}

export type S3Storage = Storage & {
  readonly kind: 's3';
  /** A time-limited URL (at most 5 minutes) to GET the object directly from the bucket. */
  signedUrl(key: string, options?: { expiresInSeconds?: number; downloadName?: string }): Promise<string>;
  /** Closes the client's sockets (tests). */
  close(): void;
};

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  errorName(error) === 'NoSuchKey' ||
  errorName(error) === 'NotFound' ||
  httpStatusOf(error) === 404;

export function createS3Storage(options: S3StorageOptions): S3Storage {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Checksums on every request are the SDK's new default; S3-compatible servers vary in support.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;

  const upload = async (key: string, body: Buffer | Readable, contentType?: string) => {
    assertSafeKey(key);
    // Multipart in 16 MiB parts, four at a time: a 2 GB WAV never sits in memory.
    await new Upload({
      client,
      params: { Bucket, Key: key, Body: body, ...(contentType ? { ContentType: contentType } : {}) },
      partSize: 16 * 1024 * 1024,
      queueSize: 4,
    }).done();
  };

  return {
    kind: 's3',
    async putFile(key, localPath, contentType) {
      const { size } = await fsp.stat(localPath);
      await upload(key, fs.createReadStream(localPath), contentType);
      await fsp.rm(localPath, { force: true });
      return { sizeBytes: size };
    },
    async copyFile(key, localPath, contentType) {
      const { size } = await fsp.stat(localPath);
      // A multipart upload becomes visible only when it completes; a failed one is aborted by the SDK.
      await upload(key, fs.createReadStream(localPath), contentType);
      return { sizeBytes: size };
    },
    async putStream(key, body, contentType) {
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      // A stream that fails fails the upload, which the SDK then aborts: nothing shows at the key.
      body.on('error', (error) => counted.destroy(error));
      await upload(key, body.pipe(counted), contentType);
      return { sizeBytes: size };
    },
    async putBuffer(key, body, contentType) {
      await upload(key, body, contentType);
      return { sizeBytes: body.length };
    },
    async get(key) {
      assertSafeKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        const body = result.Body;
        if (!body) throw notFound('File not found');
        const stream =
          body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream() as never);
        return { body: stream, sizeBytes: result.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) throw notFound('File not found');
        throw error;
      }
    },
    async sizeOf(key) {
      assertSafeKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async signedUrl(key, { expiresInSeconds = 300, downloadName } = {}) {
      assertSafeKey(key);
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ...(downloadName ? { ResponseContentDisposition: attachmentDisposition(downloadName) } : {}),
      });
      // Signed URLs live at most 5 minutes, whatever a caller asks (issue 13).
      return getSignedUrl(client, command, { expiresIn: Math.min(expiresInSeconds, 300) });
    },
    close() {
      client.destroy();
    },
  };
}
