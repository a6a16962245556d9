/**
 * Content ID chosen in the release builder (issue 28, record 192): the tracks the artist opted in, with
 * their eligibility answers (already checked by the shared schema and the Pro rule of the submission),
 * are opted in inside the transaction that creates the release, audited like an opt-in on the release
 * page. Nothing is queued for YouTube here: the release is pending, and its approval delivers it.
 */
import type { ContentIdAnswers } from '@tunedrop/shared/schemas/content-id';
import type { DbOrTx } from '../../db/client';
import { contentIdTracks } from '../../db/schema';
import { recordAudit } from '../audit';

export type SubmittedContentIdChoice = { trackId: string; title: string; answers: ContentIdAnswers };

export async function optInAtSubmission(
  tx: DbOrTx,
  actor: { id: string; email: string },
  releaseId: string,
  choices: SubmittedContentIdChoice[],
  now: Date = new Date(),
): Promise<void> {
  if (choices.length === 0) return;
  await tx.insert(contentIdTracks).values(
    choices.map(({ trackId, answers }) => ({
      trackId,
      userId: actor.id,
      isOptedIn: true,
      answers,
      optedInAt: now,
      needsYoutubeUpdate: true,
    })),
  );
  for (const { trackId, title, answers } of choices) {
    await recordAudit(tx, actor, {
      kind: 'content_id.opt_in',
      subject: { type: 'track', id: trackId, label: title },
      releaseId,
      subjectUserId: actor.id,
      after: { trackId, title, answers, in: 'builder' },
    });
  }
}
