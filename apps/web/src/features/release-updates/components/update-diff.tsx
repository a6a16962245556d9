/** The before/after of a post-release update (record 197), as the artist and the reviewer see it. */
import type { ReleaseUpdateChange } from '@tunedrop/shared/schemas/release-updates';
import { ArrowRight } from 'lucide-react';

export function UpdateDiff({
  changes,
  canListen = false,
}: {
  changes: ReleaseUpdateChange[];
  canListen?: boolean;
}) {
  return (
    <table className="w-full text-left text-sm" aria-label="What changes">
      <thead className="text-xs text-zinc-400">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Before
          </th>
          <th scope="col" className="sr-only">
            to
          </th>
          <th scope="col" className="py-1 font-medium">
            After
          </th>
        </tr>
      </thead>
      <tbody className="align-top">
        {changes.map((change) => (
          <tr
            key={change.kind === 'detail' ? change.field : change.kind === 'audio' ? change.trackId : 'cover'}
            className="border-t border-ink-700"
          >
            <th scope="row" className="py-2 pr-3 font-medium text-zinc-300">
              {change.kind === 'audio' ? `${change.label}: ${change.trackTitle}` : change.label}
            </th>
            <td className="py-2 pr-3 break-words text-zinc-400 line-through decoration-zinc-600">
              {change.kind === 'cover' ? (
                change.beforeUrl ? (
                  <img src={change.beforeUrl} alt="Current cover" className="size-20 rounded object-cover" />
                ) : (
                  '—'
                )
              ) : (
                change.before
              )}
            </td>
            <td className="py-2 pr-3 text-zinc-500">
              <ArrowRight aria-hidden className="size-4" />
            </td>
            <td className="py-2 break-words text-white">
              {change.kind === 'cover' ? (
                <figure className="space-y-1">
                  <img src={change.afterUrl} alt="New cover" className="size-20 rounded object-cover" />
                  <figcaption className="text-xs text-zinc-400">{change.afterName}</figcaption>
                </figure>
              ) : change.kind === 'audio' ? (
                <div className="space-y-1">
                  <span>{change.after}</span>
                  {canListen ? (
                    // biome-ignore lint/a11y/useMediaCaption: a submitted music recording has no captions
                    <audio controls preload="none" src={change.afterUrl} className="h-8 w-full max-w-xs" />
                  ) : null}
                </div>
              ) : (
                change.after
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
