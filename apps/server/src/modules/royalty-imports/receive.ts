/**
 * Receiving a report (issue 36, records 251, 310): its bytes hashed and counted as they arrive, written
 * where the import job will read them. Local storage gets a scratch file it takes by a rename; a bucket
 * gets the bytes streamed straight into the object, under the import's key, with no copy on this machine.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import type { Storage } from '../../infra/storage/storage';
import { type ReportMeasures, streamMeasured, writeMeasured } from './measure';
import type { ReadLimits } from './source';

export const storageKeyOf = (importId: string) => `royalty-imports/${importId}.report`;

/** A report already in storage under its import's key (the id is chosen before the bytes stream in). */
export type StoredReport = { importId: string; fileKey: string };

/** Where a received report is: a local file for queueImport to put into storage, or already stored. */
export type ReceivedReport = { measures: ReportMeasures } & ({ filePath: string } | { stored: StoredReport });

/**
 * Receives a stream as a report: measured on the way, into the bucket when storage takes a stream,
 * else to a new local file. A `guard` (a byte counter refusing too large a body) runs first; a failure
 * leaves neither a file nor an object behind.
 */
export async function receiveReport(
  storage: Storage,
  source: Readable,
  limits: ReadLimits,
  guard?: Transform,
): Promise<ReceivedReport> {
  if (storage.putStream) {
    const importId = randomUUID();
    const stored = { importId, fileKey: storageKeyOf(importId) };
    const put = storage.putStream.bind(storage);
    try {
      const measures = await streamMeasured(source, limits, (body) => put(stored.fileKey, body), guard);
      return { measures, stored };
    } catch (error) {
      // The SDK aborts a failed multipart upload; a single put that landed before the failure goes here.
      await storage.delete(stored.fileKey).catch(() => undefined);
      throw error;
    }
  }
  let file: string;
  if (storage.scratchFile) file = await storage.scratchFile();
  else {
    const dir = path.join(os.tmpdir(), 'tunedrop-royalty-uploads');
    await mkdir(dir, { recursive: true });
    file = path.join(dir, `${randomUUID()}.upload`);
  }
  return { measures: await writeMeasured(source, file, limits, guard), filePath: file };
}

/** Removes what a report's receiving left that no import took: its local file, or its object. */
export async function discardReport(storage: Storage, received: ReceivedReport): Promise<void> {
  if ('stored' in received) await storage.delete(received.stored.fileKey).catch(() => undefined);
  else await rm(received.filePath, { force: true });
}
