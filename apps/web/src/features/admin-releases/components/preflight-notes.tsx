/**
 * The pre-flight checks again at review (issue 41, records 295, 296 and 298): titles the style guide refuses
 * (a release submitted before the checks, or changed since), tracks whose AI use was never answered, and
 * what the audio analysis found in each track's WAV (clipping, silence at the start or end), each with its
 * reason and what the artist should do.
 */
import type { AdminReleaseCard } from '@tunedrop/shared/schemas/admin-releases';
import { AI_MESSAGES } from '@tunedrop/shared/schemas/ai-disclosure';
import { audioChecks } from '@tunedrop/shared/schemas/audio-checks';
import { titleStyleChecks } from '@tunedrop/shared/schemas/title-checks';
import { ClipboardCheck } from 'lucide-react';

export function PreflightNotes({ release }: { release: AdminReleaseCard }) {
  const notes = [
    ...titleStyleChecks(release.title).map((check) => ({
      key: `release-${check.code}`,
      subject: `Release title “${release.title}”`,
      text: `${check.reason} ${check.fix}`,
    })),
    ...release.tracks.flatMap((track) => [
      ...titleStyleChecks(track.title).map((check) => ({
        key: `${track.id}-${check.code}`,
        subject: `Track ${track.position} “${track.title}”`,
        text: `${check.reason} ${check.fix}`,
      })),
      ...(track.aiUsage === null
        ? [
            {
              key: `${track.id}-ai`,
              subject: `Track ${track.position} “${track.title}”`,
              text: `AI use: ${AI_MESSAGES.notAnswered}`,
            },
          ]
        : []),
      ...(track.audioAnalysis ? audioChecks(track.audioAnalysis) : []).map((check) => ({
        key: `${track.id}-${check.code}`,
        subject: `Track ${track.position} “${track.title}” audio`,
        text: `${check.reason} ${check.fix}`,
      })),
    ]),
  ];
  if (notes.length === 0) return null;
  return (
    <div
      className="rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
      data-testid="preflight-notes"
    >
      <p className="flex items-center gap-1.5 font-medium">
        <ClipboardCheck aria-hidden className="size-4 shrink-0" /> Pre-flight checks
      </p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {notes.map((note) => (
          <li key={note.key}>
            <span className="font-medium">{note.subject}:</span> {note.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
