/**
 * Earnings from store reports (the ledger's earnings lines): totals, the monthly trend, top tracks, and
 * units and earnings by store, country and release, with a CSV export. Updated live when a report is posted.
 */
import {
  EARNINGS_ANALYTICS_TEXTS,
  EARNINGS_WINDOWS,
  type EarningsRow,
  type EarningsWindow,
} from '@tunedrop/shared/schemas/analytics';
import { BarChart3, Download } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { profileQuery, useChosenArtistProfile } from '../../../lib/artist-profiles';
import { formatCents, formatDateTime, formatNumber, formatPeriod } from '../../../lib/format';
import { earningsCsvUrl, useEarningsBreakdown } from '../api/earnings';

const units = (text: string) => (/^-?\d+$/.test(text) ? formatNumber(Number(text)) : text);
const monthLabel = (period: string) =>
  /^\d{4}-\d{2}$/.test(period) ? formatPeriod(`${period}-01`, 'month') : period;

function Breakdown({
  title,
  rows,
  testId,
  labelOf = (row) => row.label,
}: {
  title: string;
  rows: EarningsRow[];
  testId: string;
  labelOf?: (row: EarningsRow) => string;
}) {
  const top = Math.max(1, ...rows.map((row) => Math.abs(row.amountCents)));
  const id = `${testId}-title`;
  return (
    <Card className="p-0">
      <h3 id={id} className="px-4 pt-4 font-semibold text-white">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-400">No earnings in this window.</p>
      ) : (
        <table aria-labelledby={id} className="mt-2 w-full text-left text-sm" data-testid={testId}>
          <thead className="text-zinc-400">
            <tr>
              <th scope="col" className="px-4 py-1.5 font-medium">
                Name
              </th>
              <th scope="col" className="px-4 py-1.5 text-right font-medium">
                Units
              </th>
              <th scope="col" className="px-4 py-1.5 text-right font-medium">
                Earnings
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 10).map((row) => (
              <tr key={row.key || row.label} className="border-t border-ink-800">
                <td className="px-4 py-1.5">
                  <span className="block truncate text-zinc-100">{labelOf(row)}</span>
                  <span aria-hidden className="mt-1 block h-1 rounded-full bg-ink-700">
                    <span
                      className="block h-1 rounded-full bg-brand-400"
                      style={{ width: `${(Math.abs(row.amountCents) / top) * 100}%` }}
                    />
                  </span>
                </td>
                <td className="px-4 py-1.5 text-right tabular-nums text-zinc-300">{units(row.units)}</td>
                <td className="px-4 py-1.5 text-right tabular-nums text-white">
                  {formatCents(row.amountCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function Trend({ months }: { months: EarningsRow[] }) {
  const top = Math.max(1, ...months.map((row) => row.amountCents));
  const last = months[months.length - 1];
  const previous = months[months.length - 2];
  const change =
    last && previous && previous.amountCents > 0
      ? ((last.amountCents - previous.amountCents) / previous.amountCents) * 100
      : null;
  return (
    <Card>
      <h3 className="font-semibold text-white">Earnings by sales month</h3>
      {change !== null && last && previous ? (
        <p className="mt-1 text-sm text-zinc-400">
          {monthLabel(last.key)}: {formatCents(last.amountCents)},{' '}
          <span className={change >= 0 ? 'text-emerald-300' : 'text-red-300'}>
            {Math.abs(change).toFixed(1)}% {change >= 0 ? 'more' : 'less'}
          </span>{' '}
          than {monthLabel(previous.key)}
        </p>
      ) : null}
      <ol className="mt-4 flex h-40 items-end gap-2" aria-label="Earnings per sales month">
        {months.map((row) => (
          <li key={row.key} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1">
            <span
              className="w-full max-w-12 rounded-t bg-brand-500"
              style={{ height: `${Math.max(2, (row.amountCents / top) * 100)}%` }}
              title={`${monthLabel(row.key)}: ${formatCents(row.amountCents)}, ${units(row.units)} units`}
            />
            <span className="truncate text-xs text-zinc-400">
              {formatPeriod(`${row.key}-01`, 'month', 'short')}
            </span>
            <span className="sr-only">
              {formatCents(row.amountCents)}, {units(row.units)} units
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

export function EarningsBreakdown({ isEnabled }: { isEnabled: boolean }) {
  const [months, setMonths] = useState<EarningsWindow>('12');
  // The dashboard's artist profile switcher (record 201): one profile's releases, or all.
  const { profile } = useChosenArtistProfile();
  const artistProfileId = profileQuery(profile).artistProfileId;
  const report = useEarningsBreakdown(months, isEnabled, artistProfileId);
  const data = report.data;

  return (
    <section aria-labelledby="store-earnings-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="store-earnings-title" className="text-xl font-semibold text-white">
            Streams and sales by store{profile ? ` · ${profile.name}` : ''}
          </h2>
          <p className="text-sm text-zinc-400">
            From the store reports posted to your balance; updated as soon as a new report is posted. These
            are gross figures, what the stores reported for your music before the distribution fee and split
            shares: your share, as credited to your balance, is in the key figures above and on your
            statements.
            {data?.lastPostedAt ? ` Last report posted ${formatDateTime(data.lastPostedAt)}.` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {report.isFetching && !report.isPending ? (
            <Spinner className="size-4 text-brand-400" label="Updating" />
          ) : null}
          <fieldset className="flex rounded-lg border border-ink-700 p-1 text-sm">
            <legend className="sr-only">Sales months</legend>
            {EARNINGS_WINDOWS.map((item) => (
              <label
                key={item.id}
                className={cn(
                  'cursor-pointer rounded-md px-3 py-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-400',
                  months === item.id ? 'bg-brand-600 text-white' : 'text-zinc-300 hover:text-white',
                )}
              >
                <input
                  type="radio"
                  name="earnings-window"
                  className="sr-only"
                  checked={months === item.id}
                  onChange={() => setMonths(item.id)}
                />
                {item.label}
              </label>
            ))}
          </fieldset>
          <a href={earningsCsvUrl(months, artistProfileId)} download className={buttonClass('outline', 'sm')}>
            <Download aria-hidden className="size-4" /> Export CSV
          </a>
        </div>
      </div>

      {report.isPending ? (
        <Spinner className="text-brand-400" />
      ) : report.isError || !data ? (
        <p role="alert" className="text-sm text-red-400">
          Your store earnings could not be loaded.
        </p>
      ) : data.totals.lines === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="store-earnings-empty">
          <BarChart3 aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500" />
          <p>
            {months === 'all'
              ? EARNINGS_ANALYTICS_TEXTS.empty
              : `No store earnings in these sales months. ${EARNINGS_ANALYTICS_TEXTS.empty}`}
          </p>
        </Card>
      ) : (
        <>
          <dl className="grid gap-4 sm:grid-cols-3">
            <Card>
              <dt className="text-sm text-zinc-400">Gross store earnings (before fee and splits)</dt>
              <dd className="text-2xl font-bold text-white tabular-nums" data-testid="store-earnings-total">
                {formatCents(data.totals.amountCents)}
              </dd>
            </Card>
            <Card>
              <dt className="text-sm text-zinc-400">Streams and sales (units)</dt>
              <dd className="text-2xl font-bold text-white tabular-nums">{units(data.totals.units)}</dd>
            </Card>
            <Card>
              <dt className="text-sm text-zinc-400">Reports</dt>
              <dd className="text-2xl font-bold text-white tabular-nums">{data.totals.reports}</dd>
            </Card>
          </dl>
          <Trend months={data.byMonth} />
          <div className="grid gap-4 lg:grid-cols-2">
            <Breakdown title="Top tracks" rows={data.byTrack} testId="by-track" />
            <Breakdown title="By store" rows={data.byStore} testId="by-store" />
            <Breakdown title="By country" rows={data.byCountry} testId="by-country" />
            <Breakdown title="By release" rows={data.byRelease} testId="by-release" />
          </div>
        </>
      )}
    </section>
  );
}
