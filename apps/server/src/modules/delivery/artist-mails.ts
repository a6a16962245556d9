/**
 * Mails to the artist about their release at the stores (issue 26 finding 4, record 194): a store
 * rejected it (naming the store and its reason: the release "Needs action"), and it is live. Written
 * to the outbox in the transaction that records the change, so each is sent once.
 */
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, releases } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';

// Titles and store answers go into subject lines: no line breaks or other control characters.
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();
const SIGN_OFF = '— The Tunedrop team';

async function owners(tx: DbOrTx, releaseIds: string[]) {
  if (releaseIds.length === 0) return [];
  return tx
    .select({
      id: releases.id,
      title: releases.title,
      email: profiles.email,
      artistName: profiles.artistName,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.userId))
    .where(inArray(releases.id, releaseIds));
}

/** A store (target) rejected the latest delivery of the release. */
export async function mailStoreRejection(
  tx: DbOrTx,
  appUrl: string | undefined,
  input: { releaseId: string; store: string; reason: string },
): Promise<void> {
  const [owner] = await owners(tx, [input.releaseId]);
  if (!owner) return;
  const title = oneLine(owner.title);
  const store = oneLine(input.store);
  await enqueueMail(tx, {
    to: owner.email,
    subject: `Needs action: ${store} rejected your release "${title}"`,
    text: [
      `Hi ${oneLine(owner.artistName)},`,
      '',
      `${store} rejected your release "${title}".`,
      '',
      `Reason given by ${store}: ${input.reason}`,
      '',
      'Your release shows "Needs action" until the store accepts it again. Contact support if you need help with the fix; once it is corrected, it is delivered again.',
      ...(appUrl
        ? ['', `See the store's answer on the release page: ${appUrl}/dashboard/releases/${input.releaseId}`]
        : []),
      '',
      SIGN_OFF,
    ].join('\n'),
  });
}

/** The release went live (once per release: the caller sends it at its first go-live). */
export async function mailReleasesLive(
  tx: DbOrTx,
  appUrl: string | undefined,
  releaseIds: string[],
): Promise<void> {
  for (const owner of await owners(tx, releaseIds)) {
    const title = oneLine(owner.title);
    await enqueueMail(tx, {
      to: owner.email,
      subject: `Your release "${title}" is live`,
      text: [
        `Hi ${oneLine(owner.artistName)},`,
        '',
        `Your release "${title}" is live: every store it was delivered to has accepted it and its release date has come. Stores may take a little while to show it.`,
        ...(appUrl ? ['', `See it on the release page: ${appUrl}/dashboard/releases/${owner.id}`] : []),
        '',
        SIGN_OFF,
      ].join('\n'),
    });
  }
}
