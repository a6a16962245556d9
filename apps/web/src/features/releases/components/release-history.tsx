/** The release's status history, oldest first, with the note a moderator or the system left. */
import type { ReleaseStatusEvent } from '@tunedrop/shared/schemas/delivery';
import { RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import { Card } from '../../../components/ui/card';
import { formatDateTime } from '../lib/format';

const statusLabel = (status: string) =>
  RELEASE_STATUS_LABELS[status as keyof typeof RELEASE_STATUS_LABELS] ??
  status.replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase());

export function ReleaseHistory({ events }: { events: ReleaseStatusEvent[] }) {
  return (
    <section aria-labelledby="history-title" className="space-y-3">
      <h2 id="history-title" className="text-xl font-semibold text-white">
        Status history
      </h2>
      <Card>
        {events.length === 0 ? (
          <p className="text-sm text-zinc-400">No status changes yet.</p>
        ) : (
          <ol aria-label="Status history" className="space-y-3 border-l border-ink-700 pl-4">
            {events.map((event) => (
              <li key={`${event.at}-${event.status}`} className="relative">
                <span
                  aria-hidden
                  className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-brand-400"
                />
                <p className="text-sm font-medium text-white">{statusLabel(event.status)}</p>
                <p className="text-xs text-zinc-400">
                  <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                </p>
                {event.note ? <p className="mt-1 text-sm text-zinc-300">{event.note}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </Card>
    </section>
  );
}
