/**
 * Writing one ERN package to a target (record 154): the resources streamed from storage with their MD5
 * taken on the way, every chunk behind the lease check.
 */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { DeliveredFile } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import type { PackagePlan } from '../ddex';
import type { LeaseGuard } from './lease';
import type { Transport } from './transport';

/**
 * Streams every resource to `writeFolder/resources/`, hashing as it goes; returns what was written.
 * Every chunk waits for the lease check first: a worker that lost its lease stops before writing more.
 */
export async function uploadResources(
  storage: Storage,
  transport: Transport,
  plan: PackagePlan,
  lease: Pick<LeaseGuard, 'check'>,
): Promise<DeliveredFile[]> {
  if (plan.resources.length === 0) return [];
  await transport.ensureDir(`${plan.writeFolder}/resources`);
  const files: DeliveredFile[] = [];
  for (const resource of plan.resources) {
    await lease.check();
    const { body } = await storage.get(resource.key);
    const hash = createHash('md5');
    // The hash is taken inside the stream (not by a second 'data' listener, which would race the reader).
    const tee = new Transform({
      highWaterMark: 1024 * 1024,
      transform(chunk: Buffer, _encoding, callback) {
        lease.check().then(
          () => {
            hash.update(chunk);
            callback(null, chunk);
          },
          (error: Error) => callback(error),
        );
      },
    });
    body.on('error', (error) => tee.destroy(error));
    tee.on('error', () => body.destroy());
    body.pipe(tee);
    const bytes = await transport.putStream(`${plan.writeFolder}/resources/${resource.name}`, tee);
    files.push({ name: `resources/${resource.name}`, key: resource.key, md5: hash.digest('hex'), bytes });
  }
  return files;
}
