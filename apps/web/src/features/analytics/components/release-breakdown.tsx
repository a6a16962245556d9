/** Releases by status and the platforms the catalogue is distributed to. */

import { platformName, RELEASE_STATUSES } from '@tunedrop/shared';
import type { AnalyticsReport } from '@tunedrop/shared/schemas/wallet';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { statusLabel, statusTone, TONE_FILL } from '../../../components/ui/status-badge';
import { paths } from '../../../config/paths';

function Bars({
  items,
  total,
}: {
  items: { key: string; label: string; count: number; color: string }[];
  total: number;
}) {
  return (
    <ul className="space-y-3">
      {items.map((item) => (
        <li key={item.key}>
          <div className="flex justify-between text-sm">
            <span className="text-zinc-200">{item.label}</span>
            <span className="text-zinc-400 tabular-nums">{item.count}</span>
          </div>
          <div className="mt-1 h-2 rounded-full bg-ink-800" aria-hidden>
            <div
              className={`h-2 rounded-full ${item.color}`}
              style={{ width: `${total === 0 ? 0 : Math.max(4, (item.count / total) * 100)}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function ReleaseBreakdown({ releases }: { releases: AnalyticsReport['releases'] }) {
  const maxPlatform = Math.max(0, ...releases.topPlatforms.map((platform) => platform.count));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <h2 className="text-lg font-semibold text-white">Releases by status</h2>
        <p className="mt-1 text-sm text-zinc-400">
          {releases.total} release{releases.total === 1 ? '' : 's'}, {releases.tracks} track
          {releases.tracks === 1 ? '' : 's'}
        </p>
        <div className="mt-4">
          {releases.total === 0 ? (
            <p className="text-sm text-zinc-400">
              No releases yet.{' '}
              <Link to={paths.upload} className="text-brand-300 hover:text-brand-400">
                Upload your first release
              </Link>
            </p>
          ) : (
            <Bars
              total={releases.total}
              items={releases.byStatus.map((row) => {
                const status = RELEASE_STATUSES.find((item) => item === row.status);
                return {
                  key: row.status,
                  label: status ? statusLabel('release', status) : row.status,
                  count: row.count,
                  color: TONE_FILL[status ? statusTone('release', status) : 'brand'],
                };
              })}
            />
          )}
        </div>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold text-white">Top platforms</h2>
        <p className="mt-1 text-sm text-zinc-400">Releases distributed to each platform</p>
        <div className="mt-4">
          {releases.topPlatforms.length === 0 ? (
            <p className="text-sm text-zinc-400">Your releases will show here once they are distributed.</p>
          ) : (
            <Bars
              total={maxPlatform}
              items={releases.topPlatforms.map((platform) => ({
                key: platform.id,
                label: platformName(platform.id),
                count: platform.count,
                color: 'bg-brand-400',
              }))}
            />
          )}
        </div>
      </Card>
    </div>
  );
}
