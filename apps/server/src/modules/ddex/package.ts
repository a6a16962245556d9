/**
 * One ERN package on a target (ERN-CHOREOGRAPHY.md §1-2): folder and file names, resources first
 * (streamed from storage, MD5 computed on the way), the NewReleaseMessage last under a temporary name
 * then renamed, and for a batch the `BatchComplete_` manifest after every release of the batch. Where
 * the target can rename folders, the whole package is written under `.part-<folder>` and renamed into
 * place when complete (record 154), so a store never sees a partial package under its real name.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PlatformId } from '@tunedrop/shared';
import type { DbOrTx } from '../../db/client';
import type { DeliveredFile } from '../../db/schema';
import { releaseForDelivery } from '../catalogue';
import { buildErnMessage } from './ern';
import { ernReleaseFrom, type ReleaseData } from './release-data';
import { el, renderXml } from './xml';

/** YYYYMMDDhhmmssnnn in UTC. */
export const stamp = (date: Date) => date.toISOString().replace(/[-:TZ.]/g, '');

export const newMessageId = (date: Date) => `TD${stamp(date)}${randomBytes(4).toString('hex').toUpperCase()}`;

/** The ReleaseId used in folder and file names: the UPC, else our own id. */
export const packageReleaseId = (release: { id: string; upc: string | null }) => release.upc ?? release.id;

export type PackagePlan = {
  data: ReleaseData;
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
  options: {
    batchFolder?: string;
    at: Date;
    /**
     * Which files the package carries: all (a new delivery), none (a metadata-only update or a takedown),
     * or those whose storage keys are listed (an update that resends only the changed files).
     */
    withResources: boolean | { keys: readonly string[] };
    isStaged: boolean;
  },
): Promise<PackagePlan> {
  const data = await releaseForDelivery(db, releaseId);
  const releaseKey = packageReleaseId(data.release);
  const folder = options.batchFolder
    ? `${options.batchFolder}/${releaseKey}`
    : `N_${releaseKey}_${stamp(options.at)}`;
  const n = data.tracks.length;
  const resources: PackagePlan['resources'] = [];
  const wanted = options.withResources;
  const carries = (key: string) => (typeof wanted === 'boolean' ? wanted : wanted.keys.includes(key));
  data.tracks.forEach((track, index) => {
    if (!carries(track.fileKey)) return;
    const ext = track.originalFileName.toLowerCase().endsWith('.flac') ? 'flac' : 'wav';
    resources.push({
      key: track.fileKey,
      name: `${releaseKey}_T${index + 1}_SoundRecording_001_${String(index + 1).padStart(3, '0')}.${ext}`,
      trackIndex: index,
    });
  });
  if (data.release.coverArtKey && data.coverEntryName && carries(data.release.coverArtKey)) {
    const ext = data.coverEntryName.endsWith('.png') ? 'png' : 'jpg';
    resources.push({
      key: data.release.coverArtKey,
      name: `${releaseKey}_T${n + 1}_CoverArt.${ext}`,
      trackIndex: null,
    });
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
  const [top = folder] = folder.split('/');
  return { top, writeTop: isStaged ? `${STAGING_PREFIX}${top}` : top };
}

export function packageXml(
  plan: PackagePlan,
  context: {
    /** Who sends (the admin's DDEX settings). */
    sender: { partyId: string; name: string };
    /** A YouTube-profile target gets YouTube's feed (record 192). */
    target: { dpid: string; name: string; profile?: string };
    platforms: PlatformId[];
    /** A takedown carries no deal at all, Content ID included. */
    isTakedown?: boolean;
    files: DeliveredFile[];
    messageId: string;
    at: Date;
  },
): string {
  const { release } = plan.data;
  const byKey = new Map(context.files.map((file) => [file.key, file]));
  const coverFile = release.coverArtKey ? byKey.get(release.coverArtKey) : undefined;
  const coverResource = plan.resources.find((r) => r.trackIndex === null);
  // A file is named (URI, MD5) only when it is in this package's folder; an update that resends nothing,
  // or only some files, describes the others without a File (record 320, choreography §5).
  const ern = ernReleaseFrom(takedownAware(plan.data, context.isTakedown === true), {
    isYoutube: context.target.profile === 'youtube',
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
            isProvided: coverResource !== undefined,
          }
        : null,
    trackFile: (track, index) => {
      const file = byKey.get(track.fileKey);
      const resource = plan.resources.find((r) => r.trackIndex === index);
      return {
        fileName: resource ? `resources/${resource.name}` : (file?.name ?? track.entryName),
        fileSizeBytes: file?.bytes ?? track.fileSizeBytes,
        md5: file?.md5 ?? null,
        isProvided: resource !== undefined,
      };
    },
  });
  return buildErnMessage(
    ern,
    {
      senderPartyId: context.sender.partyId,
      senderName: context.sender.name,
      recipientPartyId: context.target.dpid,
      recipientName: context.target.name,
    },
    { messageId: context.messageId, createdAt: context.at, threadId: `TD-${release.id}` },
  );
}

/** A takedown withdraws every deal: no Content ID choice is carried either. */
const takedownAware = (data: ReleaseData, isTakedown: boolean): ReleaseData =>
  isTakedown ? { ...data, tracks: data.tracks.map((track) => ({ ...track, contentId: null })) } : data;

/** Where the message is written (inside the temporary folder while the package is staged). */
export const xmlName = (plan: PackagePlan) => `${plan.writeFolder}/${plan.releaseKey}.xml`;

/** The batch manifest (ern-c-sftp/18 ManifestMessage), written after every message of the batch. */
export function manifestXml(input: {
  batchId: string;
  rootDirectory: string;
  sender: string;
  recipient: string;
  at: Date;
  messages: { messageId: string; url: string; upc: string | null; isTakedown: boolean; md5: string }[];
}): string {
  return renderXml(
    el(
      'ern-c-sftp:ManifestMessage',
      {
        'xmlns:ern-c-sftp': 'http://ddex.net/xml/ern-c-sftp/18',
        MessageVersionId: 'ern-c-sftp/18',
        AvsVersionId: '4',
      },
      el(
        'MessageHeader',
        el('MessageSender', el('PartyId', input.sender)),
        el('MessageRecipient', el('PartyId', input.recipient)),
        el('MessageCreatedDateTime', input.at.toISOString().replace(/\.\d{3}Z$/, 'Z')),
      ),
      el('IsTestFlag', 'false'),
      el('RootDirectory', input.rootDirectory),
      el('NumberOfMessages', input.messages.length),
      ...input.messages.map((message) =>
        el(
          'MessageInBatch',
          el('MessageType', 'NewReleaseMessage'),
          el('MessageId', message.messageId),
          el('URL', message.url),
          el('IncludedReleaseId', message.upc ? el('ICPN', message.upc) : null),
          el('DeliveryType', message.isTakedown ? 'TakeDown' : 'NewReleaseDelivery'),
          el('ProductType', 'AudioProduct'),
          el('HashSum', el('HashSumValue', message.md5), el('HashSumAlgorithmType', 'MD5')),
        ),
      ),
    ),
  );
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');
