/**
 * The audio pre-flight warnings under a checked WAV (issue 41, record 298): clipping and silence at the
 * start or end, each with its plain reason and how to fix it. A fake-lossless file never gets here: the
 * server refuses it and the file box shows the refusal.
 */
import { type AudioAnalysis, audioChecks } from '@tunedrop/shared/schemas/audio-checks';
import { TriangleAlert } from 'lucide-react';

export function AudioChecks({ analysis }: { analysis: AudioAnalysis | null | undefined }) {
  const checks = analysis ? audioChecks(analysis) : [];
  if (checks.length === 0) return null;
  return (
    <div
      className="mt-2 space-y-1 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100"
      data-testid="audio-checks"
    >
      <p className="flex items-center gap-1.5 font-medium">
        <TriangleAlert aria-hidden className="size-4 shrink-0" /> Check this audio before you submit
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {checks.map((check) => (
          <li key={check.code}>
            {check.reason} {check.fix}
          </li>
        ))}
      </ul>
    </div>
  );
}
