/**
 * Mails to the artist when a moderator decides on their release (approved, rejected with the reason,
 * taken down). Callers enqueue them inside the transaction that makes the change, then wake the worker.
 */
import type { DbOrTx } from '../../db/client';
import { enqueueMail, type OutgoingMail } from '../../infra/mail/mail';

export type ReleaseMailKind =
  | 'approved'
  | 'rejected'
  | 'taken_down'
  | 'takedown_rejected'
  | 'store_takedown_rejected'
  | 'update_approved'
  | 'update_rejected';

export type ReleaseMailInput = {
  to: string;
  artistName: string;
  releaseTitle: string;
  appUrl: string;
  /** Required for 'rejected' and 'store_takedown_rejected'. */
  reason?: string | null;
  /** The store's name, for 'store_takedown_rejected'. */
  storeName?: string;
};

// Titles go into a subject line: no line breaks or other control characters.
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

export function releaseMail(kind: ReleaseMailKind, input: ReleaseMailInput): OutgoingMail {
  const title = oneLine(input.releaseTitle);
  const songsUrl = `${input.appUrl}/dashboard/songs`;
  const greeting = `Hi ${oneLine(input.artistName)},`;
  const signOff = '— The Tunedrop team';
  switch (kind) {
    case 'approved':
      return {
        to: input.to,
        subject: `Your release "${title}" has been approved`,
        text: [
          greeting,
          '',
          `Good news: your release "${title}" has been approved and is being prepared for distribution to the platforms you selected.`,
          '',
          `You can follow its status in My Songs: ${songsUrl}`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'rejected':
      return {
        to: input.to,
        subject: `Your release "${title}" was not approved`,
        text: [
          greeting,
          '',
          `Your release "${title}" was reviewed and could not be approved.`,
          '',
          `Reason: ${input.reason?.trim() || 'No reason was given.'}`,
          '',
          `The reason is also shown in My Songs: ${songsUrl}`,
          `You can upload a corrected release at ${input.appUrl}/dashboard/upload.`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'taken_down':
      return {
        to: input.to,
        subject: `Your release "${title}" has been taken down`,
        text: [
          greeting,
          '',
          `Your takedown request was approved: "${title}" has been taken down and will be removed from the platforms it was delivered to.`,
          '',
          `You can see its status in My Songs: ${songsUrl}`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'takedown_rejected':
      // A whole-release takedown request turned down (issue 26): the artist hears of it as of a per-store one.
      return {
        to: input.to,
        subject: `Your takedown request for "${title}" was not approved`,
        text: [
          greeting,
          '',
          `Your request to take "${title}" down was reviewed and not approved: the release stays live at the stores.`,
          ...(input.reason?.trim() ? ['', `Reason: ${input.reason.trim()}`] : []),
          '',
          `You can see its status in My Songs: ${songsUrl}, and ask again from there.`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'update_approved':
      return {
        to: input.to,
        subject: `Your update to "${title}" has been approved`,
        text: [
          greeting,
          '',
          `The changes you made to "${title}" have been approved and are being sent to the stores that carry it.`,
          '',
          `You can follow its status in My Songs: ${songsUrl}`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'update_rejected':
      return {
        to: input.to,
        subject: `Your update to "${title}" was not approved`,
        text: [
          greeting,
          '',
          `The changes you made to "${title}" were reviewed and not approved. The release stays at the stores as it was.`,
          '',
          `Reason: ${input.reason?.trim() || 'No reason was given.'}`,
          '',
          `You can edit the release again from My Songs: ${songsUrl}`,
          '',
          signOff,
        ].join('\n'),
      };
    case 'store_takedown_rejected':
      return {
        to: input.to,
        subject: `Your takedown request for "${title}" from ${oneLine(input.storeName ?? 'a store')} was not approved`,
        text: [
          greeting,
          '',
          `Your request to take "${title}" down from ${oneLine(input.storeName ?? 'a store')} was reviewed and not approved: the release stays live there.`,
          '',
          `Reason: ${input.reason?.trim() || 'No reason was given.'}`,
          '',
          `You can see its status in My Songs: ${songsUrl}`,
          '',
          signOff,
        ].join('\n'),
      };
  }
}

/** Writes the mail to the outbox in the caller's transaction. */
export async function enqueueReleaseMail(
  tx: DbOrTx,
  kind: ReleaseMailKind,
  input: ReleaseMailInput,
): Promise<void> {
  await enqueueMail(tx, releaseMail(kind, input));
}
