/**
 * /admin/content-id (admins only; record 185): each artist's allow-listed YouTube channels and opted-in
 * tracks, for staff to apply by hand in YouTube's CMS what the YouTube feed does not carry.
 */
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAdminContentId } from '../api/content-id';
import { AssetIdForm } from '../components/asset-id-form';
import { ClaimsQueue } from '../components/claims-queue';

export default function AdminContentIdPage() {
  usePageTitle('Content ID');
  const list = useAdminContentId();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-white">Content ID</h1>
        <p className="mt-1 text-sm text-zinc-400">
          Artists' own YouTube channels (never to be claimed) and the tracks they opted in. Add the channels
          to the allow-list in YouTube's CMS by hand: the YouTube feed does not carry them.
        </p>
      </div>
      <ClaimsQueue />
      <h2 className="text-xl font-semibold text-white">Artists</h2>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {errorMessage(list.error, 'Content ID could not be loaded.')}
        </p>
      ) : list.data.items.length === 0 ? (
        <Card>
          <p className="text-sm text-zinc-400">No artist has opted a track in or listed a channel yet.</p>
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Artists using Content ID">
          {list.data.items.map((artist) => (
            <li key={artist.userId} data-testid="admin-content-id-artist">
              <Card className="space-y-3">
                <h2 className="text-lg font-semibold break-words text-white">
                  {artist.artistName ?? artist.email}{' '}
                  <span className="text-sm font-normal break-all text-zinc-400">{artist.email}</span>
                </h2>
                <div>
                  <h3 className="text-sm font-medium text-zinc-200">Allow-listed channels</h3>
                  {artist.channels.length === 0 ? (
                    <p className="text-sm text-zinc-400">None</p>
                  ) : (
                    <ul className="font-mono text-sm break-all text-zinc-100">
                      {artist.channels.map((channel) => (
                        <li key={channel}>{channel}</li>
                      ))}
                    </ul>
                  )}
                </div>
                <div>
                  <h3 className="text-sm font-medium text-zinc-200">Opted-in tracks</h3>
                  {artist.tracks.length === 0 ? (
                    <p className="text-sm text-zinc-400">None</p>
                  ) : (
                    <ul className="space-y-3 text-sm text-zinc-100">
                      {artist.tracks.map((track) => (
                        <li key={track.trackId} className="space-y-1 break-words">
                          <p>
                            {track.title} <span className="text-zinc-400">· {track.releaseTitle}</span>
                            {track.isrc ? (
                              <span className="font-mono text-zinc-400"> · {track.isrc}</span>
                            ) : null}
                            <span className="text-zinc-400"> · since {formatDate(track.optedInAt)}</span>
                          </p>
                          <AssetIdForm trackId={track.trackId} title={track.title} assetId={track.assetId} />
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
