/**
 * Assigns an unknown ISRC or UPC to one of our tracks or releases: search approved releases by title,
 * artist or uploader email, pick the release or one of its tracks. The mapping is remembered for later
 * imports and re-matches every unposted import's lines with that code.
 */
import type { UnmatchedCode } from '@tunedrop/shared/schemas/royalties';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { useAssignCode, useReleaseSearch } from '../api/royalty-imports';
import { useAssignSuspense } from '../api/suspense';

type Target = { trackId: string } | { releaseId: string };

export function AssignCodeDialog({
  code,
  onClose,
  isSuspense = false,
}: {
  code: Pick<UnmatchedCode, 'kind' | 'code' | 'sampleTitle' | 'sampleArtist'> | null;
  onClose: () => void;
  /** The code's money is held in suspense (decision 188): assigning also pays it to the artist. */
  isSuspense?: boolean;
}) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [target, setTarget] = useState<Target | null>(null);
  const search = useReleaseSearch(q);
  const assignCode = useAssignCode();
  const assignSuspense = useAssignSuspense();
  const assign = isSuspense ? assignSuspense : assignCode;

  useEffect(() => {
    if (!code) return;
    const initial = code.sampleTitle ?? '';
    setText(initial);
    setQ(initial);
    setTarget(null);
  }, [code]);
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);

  const releases = search.data?.items ?? [];
  const selectedKey = target ? ('trackId' in target ? `t:${target.trackId}` : `r:${target.releaseId}`) : '';

  const confirm = () => {
    if (!code || !target) return;
    const input = { code: code.code, kind: code.kind, ...target };
    const label = `${code.kind === 'isrc' ? 'ISRC' : 'UPC'} ${code.code} assigned`;
    const onError = (error: unknown) => notify.error(errorMessage(error, 'The code could not be assigned.'));
    if (isSuspense) {
      assignSuspense.mutate(input, {
        onSuccess: (result) => {
          notify.success(
            label,
            `${formatCents(result.creditedCents)} credited from ${result.lines} held line${result.lines === 1 ? '' : 's'}`,
          );
          onClose();
        },
        onError,
      });
      return;
    }
    assignCode.mutate(input, {
      onSuccess: (result) => {
        notify.success(
          label,
          `${result.rematchedLines} waiting line${result.rematchedLines === 1 ? '' : 's'} now matched`,
        );
        onClose();
      },
      onError,
    });
  };

  return (
    <Dialog
      open={code !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={code ? `Assign ${code.kind === 'isrc' ? 'ISRC' : 'UPC'} ${code.code}` : 'Assign code'}
      description={
        code?.sampleTitle
          ? `The report calls it “${code.sampleTitle}”${code.sampleArtist ? ` by ${code.sampleArtist}` : ''}.`
          : 'Find the release this code belongs to.'
      }
      className="max-w-2xl"
    >
      <div className="space-y-3">
        <SearchInput
          label="Search releases by title, artist or email"
          value={text}
          onChange={setText}
          onSubmit={() => setQ(text.trim())}
          className="max-w-none"
        />
        <div className="max-h-[45vh] space-y-3 overflow-y-auto" aria-live="polite">
          {!q ? (
            <p className="text-sm text-zinc-400">Type a title, an artist or an email to find the release.</p>
          ) : search.isPending ? (
            <Spinner className="text-brand-400" />
          ) : releases.length === 0 ? (
            <p className="text-sm text-zinc-400">No approved release matches “{q}”.</p>
          ) : (
            <fieldset>
              <legend className="sr-only">Track or release</legend>
              {releases.map((release) => (
                <div key={release.id} className="mb-3 rounded-lg border border-ink-700 p-3">
                  <label className="flex cursor-pointer items-start gap-2 text-sm">
                    <input
                      type="radio"
                      name="assign-target"
                      className="mt-1 accent-brand-500"
                      checked={selectedKey === `r:${release.id}`}
                      onChange={() => setTarget({ releaseId: release.id })}
                    />
                    <span>
                      <span className="font-medium text-white">{release.title}</span>{' '}
                      <span className="text-zinc-400">
                        · whole release{release.upc ? ` · UPC ${release.upc}` : ''} ·{' '}
                        {release.uploader.artistName || release.uploader.email}
                      </span>
                    </span>
                  </label>
                  <ul className="mt-2 space-y-1 pl-6">
                    {release.tracks.map((track) => (
                      <li key={track.id}>
                        <label className="flex cursor-pointer items-start gap-2 text-sm">
                          <input
                            type="radio"
                            name="assign-target"
                            className="mt-1 accent-brand-500"
                            checked={selectedKey === `t:${track.id}`}
                            onChange={() => setTarget({ trackId: track.id })}
                          />
                          <span className="text-zinc-200">
                            {track.position}. {track.title}
                            <span className="text-zinc-400"> · {track.isrc ?? 'no ISRC yet'}</span>
                          </span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </fieldset>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>
            Leave unassigned
          </Button>
          <Button onClick={confirm} disabled={!target || assign.isPending}>
            {assign.isPending ? 'Assigning…' : 'Assign'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
