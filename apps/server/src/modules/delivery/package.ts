/**
 * One ERN package on a target (ERN-CHOREOGRAPHY.md §1-2): folder and file names, resources first
 * (streamed from storage, MD5 computed on the way), the NewReleaseMessage last under a temporary name
 * then renamed, and for a batch the `BatchComplete_` manifest after every release of the batch. Where
 * the target can rename folders, the whole package is written under `.part-<folder>` and renamed into
 * place when complete (record 154), so a store never sees a partial package under its real name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import type { PlatformId } from '@tunedrop/shared';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import type { DeliveredFile } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { buildErnMessage } from '../admin-releases/ern';
import { type ExportData, ernReleaseFrom, loadExportData } from '../admin-releases/export';
import type { EffectiveSettings } from './codes';
import type { LeaseGuard } from './lease';
import type { Transport } from './transport';

/** YYYYMMDDhhmmssnnn in UTC. */
export const stamp = (date: Date) => date.toISOString().replace(/[-:TZ.]/g, '');

export const newMessageId = (date: Date) => `TD${stamp(date)}${randomBytes(4).toString('hex').toUpperCase()}`;

/** The ReleaseId used in folder and file names: the UPC, else our own id. */
export const packageReleaseId = (release: { id: string; upc: string | null }) => release.upc ?? release.id;

export type PackagePlan = {
  data: ExportData;
  releaseKey: string;
  /** Folder of this release relative to the target root. */
  folder: string;
  /** Where its files are written now: `folder` itself, or under the temporary top folder. */
  writeFolder: string;
  /** Folder in which the store writes acknowledgements for it. */
  ackFolder: string;
  resources: { key: string; name: string; trackIndex: number | null }[];
};

export async function planPackage(
  db: DbOrTx,
  releaseId: string,
  options: { batchFolder?: string; at: Date; withResources: boolean; isStaged: boolean },
): Promise<PackagePlan> {
  const data = await loadExportData(db, releaseId);
  const releaseKey = packageReleaseId(data.release);
  const folder = options.batchFolder
    ? `${options.batchFolder}/${releaseKey}`
    : `N_${releaseKey}_${stamp(options.at)}`;
  const n = data.tracks.length;
  const resources: PackagePlan['resources'] = [];
  if (options.withResources) {
    data.tracks.forEach((track, index) => {
      const ext = track.originalFileName.toLowerCase().endsWith('.flac') ? 'flac' : 'wav';
      resources.push({
        key: track.fileKey,
        name: `${releaseKey}_T${index + 1}_SoundRecording_001_${String(index + 1).padStart(3, '0')}.${ext}`,
        trackIndex: index,
      });
    });
    if (data.release.coverArtKey && data.coverEntryName) {
      const ext = data.coverEntryName.endsWith('.png') ? 'png' : 'jpg';
      resources.push({
        key: data.release.coverArtKey,
        name: `${releaseKey}_T${n + 1}_CoverArt.${ext}`,
        trackIndex: null,
      });
    }
  }
  const writeFolder = options.isStaged ? `${STAGING_PREFIX}${folder}` : folder;
  return { data, releaseKey, folder, writeFolder, ackFolder: options.batchFolder ?? folder, resources };
}

/**
 * A package's temporary name: hidden (a leading dot) and not matching the choreography's `{P|N|L}_`
 * folder pattern, so no store takes it for a delivery.
 */
export const STAGING_PREFIX = '.part-';

/** The top folder a package (or a batch) lives in, and where it is written until complete. */
export function topFolders(folder: string, isStaged: boolean) {
  const top = folder.split('/')[0] as string;
  return { top, writeTop: isStaged ? `${STAGING_PREFIX}${top}` : top };
}

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

export function packageXml(
  plan: PackagePlan,
  context: {
    settings: EffectiveSettings;
    target: { dpid: string; name: string };
    platforms: PlatformId[];
    files: DeliveredFile[];
    messageId: string;
    at: Date;
  },
): string {
  const { release } = plan.data;
  const byKey = new Map(context.files.map((file) => [file.key, file]));
  const coverFile = release.coverArtKey ? byKey.get(release.coverArtKey) : undefined;
  const coverResource = plan.resources.find((r) => r.trackIndex === null);
  const ern = ernReleaseFrom(plan.data, {
    // Deals only for this target's platforms; none at all is a takedown (choreography §5).
    distributionStores: context.platforms,
    cover:
      plan.data.coverEntryName && release.coverArtKey
        ? {
            fileName: coverResource
              ? `resources/${coverResource.name}`
              : (coverFile?.name ?? plan.data.coverEntryName),
            codec: plan.data.coverEntryName.endsWith('.png') ? 'PNG' : 'JPEG',
            md5: coverFile?.md5 ?? null,
            sizeBytes: coverFile?.bytes ?? null,
          }
        : null,
    trackFile: (track, index) => {
      const file = byKey.get(track.fileKey);
      const resource = plan.resources.find((r) => r.trackIndex === index);
      return {
        fileName: resource ? `resources/${resource.name}` : (file?.name ?? track.entryName),
        fileSizeBytes: file?.bytes ?? track.fileSizeBytes,
        md5: file?.md5 ?? null,
      };
    },
  });
  return buildErnMessage(
    ern,
    {
      senderPartyId: context.settings.ddexSenderPartyId,
      senderName: context.settings.ddexSenderName,
      recipientPartyId: context.target.dpid,
      recipientName: context.target.name,
    },
    { messageId: context.messageId, createdAt: context.at, threadId: `TD-${release.id}` },
  );
}

/** Where the message is written (inside the temporary folder while the package is staged). */
export const xmlName = (plan: PackagePlan) => `${plan.writeFolder}/${plan.releaseKey}.xml`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The batch manifest (ern-c-sftp/18 ManifestMessage), written after every message of the batch. */
export function manifestXml(input: {
  batchId: string;
  rootDirectory: string;
  sender: string;
  recipient: string;
  at: Date;
  messages: { messageId: string; url: string; upc: string | null; isTakedown: boolean; md5: string }[];
}): string {
  const items = input.messages
    .map(
      (m) => `  <MessageInBatch>
    <MessageType>NewReleaseMessage</MessageType>
    <MessageId>${esc(m.messageId)}</MessageId>
    <URL>${esc(m.url)}</URL>
    <IncludedReleaseId>${m.upc ? `<ICPN>${m.upc}</ICPN>` : ''}</IncludedReleaseId>
    <DeliveryType>${m.isTakedown ? 'TakeDown' : 'NewReleaseDelivery'}</DeliveryType>
    <ProductType>AudioProduct</ProductType>
    <HashSum><HashSumValue>${m.md5}</HashSumValue><HashSumAlgorithmType>MD5</HashSumAlgorithmType></HashSum>
  </MessageInBatch>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ern-c-sftp:ManifestMessage xmlns:ern-c-sftp="http://ddex.net/xml/ern-c-sftp/18" MessageVersionId="ern-c-sftp/18" AvsVersionId="4">
  <MessageHeader>
    <MessageSender><PartyId>${esc(input.sender)}</PartyId></MessageSender>
    <MessageRecipient><PartyId>${esc(input.recipient)}</PartyId></MessageRecipient>
    <MessageCreatedDateTime>${input.at.toISOString().replace(/\.\d{3}Z$/, 'Z')}</MessageCreatedDateTime>
  </MessageHeader>
  <IsTestFlag>false</IsTestFlag>
  <RootDirectory>${esc(input.rootDirectory)}</RootDirectory>
  <NumberOfMessages>${input.messages.length}</NumberOfMessages>
${items}
</ern-c-sftp:ManifestMessage>
`;
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');
export type { Config };
