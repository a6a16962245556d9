/**
 * Where tus uploads wait until they are checked (decision 157): on the embedded default a folder of
 * the instance that took them ($DATA_DIR/uploads-staging, @tus/file-store); with S3 configured the
 * bucket itself (@tus/s3-store, one multipart upload per tus upload), so any instance can take any
 * PATCH and the checks read the file back from the bucket with ranged reads, never from local disk.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/utils';
import type { Config } from '../../config';
import { s3OptionsFrom } from '../../infra/storage/s3-storage';
import { assertSafeKey, type Storage } from '../../infra/storage/storage';
import { errorName, httpStatusOf } from '../../lib/error-fields';
import { type ByteSource, openFileSource } from '../catalogue';

export interface UploadStaging {
  readonly kind: 'local' | 's3';
  /** The tus server's data store. */
  readonly datastore: DataStore;
  /** How many bytes of an unfinished upload have arrived (0 when none or unknown). */
  receivedBytes(id: string): Promise<number>;
  /**
   * The size of the staged file once it can be read whole, else null: the local file as it grows;
   * the bucket's object only after its multipart upload completed.
   */
  readableSize(id: string): Promise<number | null>;
  open(id: string): Promise<ByteSource>;
  /** At most `maxBytes` of the file, for checks that need it whole (a cover): a path or a buffer. */
  whole(id: string, maxBytes: number): Promise<string | Buffer>;
  /** Copies the staged file into storage under `key`, leaving the staged file in place. */
  copyInto(storage: Storage, key: string, id: string, contentType: string): Promise<void>;
  /** Removes whatever the upload left in staging; nothing there is not an error. */
  remove(id: string): Promise<void>;
  /** Every upload with something in staging, with the time its newest piece was written. */
  listStaged(): Promise<Map<string, Date>>;
  close(): void;
}

export const UPLOAD_ID_PATTERN = /^[a-f0-9]{32}$/;

function assertUploadId(id: string): void {
  if (!UPLOAD_ID_PATTERN.test(id)) throw new Error(`Not an upload id: ${id}`);
}

export const localStagingDir = (config: Pick<Config, 'dataDir'>) =>
  path.join(config.dataDir, 'uploads-staging');

/** The staged file of an upload on local staging; ids are 32 hex characters, so they never act as paths. */
export function localStagedFile(config: Pick<Config, 'dataDir'>, id: string): string {
  assertUploadId(id);
  return path.join(localStagingDir(config), id);
}

const laterOf = (known: Date | undefined, next: Date) => (known && known > next ? known : next);

function createLocalStaging(config: Pick<Config, 'dataDir'>): UploadStaging {
  const file = (id: string) => localStagedFile(config, id);
  const size = async (id: string) => (await fsp.stat(file(id)).catch(() => null))?.size ?? null;
  return {
    kind: 'local',
    datastore: new FileStore({ directory: localStagingDir(config) }),
    receivedBytes: async (id) => (await size(id)) ?? 0,
    readableSize: size,
    open: (id) => openFileSource(file(id)),
    whole: async (id) => file(id),
    async copyInto(storage, key, id, contentType) {
      await storage.copyFile(key, file(id), contentType);
    },
    async remove(id) {
      await Promise.all([fsp.rm(file(id), { force: true }), fsp.rm(`${file(id)}.json`, { force: true })]);
    },
    async listStaged() {
      const dir = localStagingDir(config);
      const staged = new Map<string, Date>();
      for (const name of await fsp.readdir(dir).catch((): string[] => [])) {
        const id = name.replace(/\.json$/, '');
        if (!UPLOAD_ID_PATTERN.test(id)) continue;
        const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
        if (stat) staged.set(id, laterOf(staged.get(id), stat.mtime));
      }
      return staged;
    },
    close() {},
  };
}

export type S3StagingOptions = {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Multipart part size; S3 takes parts of at least 5 MiB except the last. */
  partSize?: number;
};

/** @tus/s3-store with a way to close its client and forget its cached metadata of a removed upload. */
class ClosableS3Store extends S3Store {
  forget(id: string) {
    return this.clearCache(id);
  }
  close() {
    this.client.destroy();
  }
}

/**
 * The store's cache of upload metadata (upload-id and size: fixed once created). tus's default map
 * grows for ever on an instance that never sees an upload's last PATCH; this one keeps the newest.
 */
export class BoundedKvStore<T> implements KvStore<T> {
  private readonly data = new Map<string, T>();
  constructor(private readonly maxEntries = 10_000) {}
  async get(key: string) {
    return this.data.get(key);
  }
  async set(key: string, value: T) {
    this.data.delete(key);
    this.data.set(key, value);
    if (this.data.size > this.maxEntries) {
      const oldest = this.data.keys().next().value;
      if (oldest !== undefined) this.data.delete(oldest);
    }
  }
  async delete(key: string) {
    this.data.delete(key);
  }
}

const isMissing = (error: unknown) => {
  const name = errorName(error);
  return (
    name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchUpload' || httpStatusOf(error) === 404
  );
};

const STAGED_KEY = /^([a-f0-9]{32})(?:\.info|\.part)?$/;

/** Ranged GETs are at least this long, so walking a WAV's first chunks costs one or two requests. */
const READ_WINDOW = 64 * 1024;
/** CopyObject's limit; larger files would need a multipart copy. */
const MAX_SINGLE_COPY = 5 * 1024 ** 3;

export function createS3Staging(options: S3StagingOptions): UploadStaging {
  const clientConfig: S3ClientConfig = {
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // As in s3-storage.ts: S3-compatible servers vary in their support of the SDK's default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  const Bucket = options.bucket;
  const client = new S3Client(clientConfig);
  // Objects of an upload: `<id>` (the file, once complete), `<id>.info`, `<id>.part` (a tail under
  // 5 MiB waiting for more bytes). Ids are 32 hex characters at the bucket's root; stored files are
  // always under a user's folder, so the two never meet.
  const datastore = new ClosableS3Store({
    partSize: options.partSize ?? 8 * 1024 * 1024,
    cache: new BoundedKvStore(),
    s3ClientConfig: { ...clientConfig, bucket: Bucket },
  });

  const sizeOf = async (Key: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  const getRange = async (Key: string, start: number, endInclusive: number) => {
    const result = await client.send(
      new GetObjectCommand({ Bucket, Key, Range: `bytes=${start}-${endInclusive}` }),
    );
    if (!result.Body) return Buffer.alloc(0);
    return Buffer.from(await result.Body.transformToByteArray());
  };

  return {
    kind: 's3',
    datastore,
    async receivedBytes(id) {
      assertUploadId(id);
      try {
        return (await datastore.getUpload(id)).offset;
      } catch {
        return 0;
      }
    },
    readableSize(id) {
      assertUploadId(id);
      return sizeOf(id);
    },
    async open(id) {
      assertUploadId(id);
      const size = await sizeOf(id);
      if (size === null) throw new Error(`upload ${id} is not complete in the bucket`);
      let window: { start: number; data: Buffer } | null = null;
      return {
        size,
        async read(position, length) {
          const end = Math.min(position + length, size);
          if (position >= end) return Buffer.alloc(0);
          if (!window || position < window.start || end > window.start + window.data.length) {
            const fetchEnd = Math.min(size, position + Math.max(length, READ_WINDOW));
            window = { start: position, data: await getRange(id, position, fetchEnd - 1) };
          }
          return window.data.subarray(position - window.start, end - window.start);
        },
        async close() {},
      };
    },
    async whole(id, maxBytes) {
      assertUploadId(id);
      // One byte past the limit is enough for the size rule to refuse it.
      return getRange(id, 0, maxBytes);
    },
    async copyInto(storage, key, id, contentType) {
      assertUploadId(id);
      assertSafeKey(key);
      if (storage.kind !== 's3') throw new Error('S3 staging copies only into the S3 storage');
      const size = await sizeOf(id);
      if (size === null) throw new Error(`upload ${id} is not complete in the bucket`);
      if (size > MAX_SINGLE_COPY) throw new Error(`upload ${id} is larger than one S3 copy takes`);
      // A server-side copy: the bytes never leave the bucket, and the key shows the whole file or nothing.
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: key,
          CopySource: `${Bucket}/${id}`,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      );
    },
    async remove(id) {
      assertUploadId(id);
      let uploadId: string | undefined;
      try {
        const info = await client.send(new HeadObjectCommand({ Bucket, Key: `${id}.info` }));
        uploadId = info.Metadata?.['upload-id'];
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      if (uploadId) {
        try {
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: id, UploadId: uploadId }));
        } catch (error) {
          // Completed (or already aborted) uploads have no multipart upload left to abort.
          if (!isMissing(error)) throw error;
        }
      }
      for (const Key of [id, `${id}.part`, `${id}.info`]) {
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
      }
      await datastore.forget(id);
    },
    async listStaged() {
      // Upload objects sit at the bucket's root; stored files are all under a folder, so a
      // delimited listing of the root never walks them.
      const staged = new Map<string, Date>();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Delimiter: '/', ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const match = STAGED_KEY.exec(object.Key ?? '');
          if (match?.[1])
            staged.set(match[1], laterOf(staged.get(match[1]), object.LastModified ?? new Date(0)));
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return staged;
    },
    close() {
      datastore.close();
      client.destroy();
    },
  };
}

const stagings = new WeakMap<Config, UploadStaging>();

/** The staging of a running system: the bucket when S3 is configured, else the local folder. */
export function stagingFor(config: Config): UploadStaging {
  let staging = stagings.get(config);
  if (!staging) {
    const s3 = s3OptionsFrom(config);
    staging = s3 ? createS3Staging(s3) : createLocalStaging(config);
    stagings.set(config, staging);
  }
  return staging;
}

export function closeStaging(config: Config): void {
  stagings.get(config)?.close();
  stagings.delete(config);
}
