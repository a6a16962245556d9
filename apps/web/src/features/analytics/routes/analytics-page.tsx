/** Analytics (Pro, free access and admins): earnings over time, releases, withdrawal history. Basic users go to /dashboard. */
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { ANALYTICS_RANGES, ANALYTICS_TEXTS, type AnalyticsRange } from '@tunedrop/shared/schemas/wallet';
import { ArrowDownRight, ArrowUpRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { formatCents, formatPeriod } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import { useAnalytics } from '../api/analytics';
import { EarningsBreakdown } from '../components/earnings-breakdown';
import { EarningsChart } from '../components/earnings-chart';
import { ReleaseBreakdown } from '../components/release-breakdown';
import { WithdrawalHistory } from '../components/withdrawal-history';

function Kpi({
  label,
  value,
  detail,
  testId,
}: {
  label: string;
  value: string;
  detail?: React.ReactNode;
  testId?: string;
}) {
  return (
    <Card className="space-y-1">
      <p className="text-sm text-zinc-400">{label}</p>
      <p className="text-2xl font-bold text-white tabular-nums" data-testid={testId}>
        {value}
      </p>
      {detail ? <div className="text-xs text-zinc-400">{detail}</div> : null}
    </Card>
  );
}

function Change({ current, previous }: { current: number; previous: number | null }) {
  if (previous === null) return null;
  if (previous === 0)
    return <span>{current > 0 ? 'Up from $0.00 the period before' : 'Same as the period before'}</span>;
  const percent = ((current - previous) / previous) * 100;
  const isUp = percent >= 0;
  const Icon = isUp ? ArrowUpRight : ArrowDownRight;
  return (
    <span className={cn('inline-flex items-center gap-1', isUp ? 'text-emerald-300' : 'text-red-300')}>
      <Icon aria-hidden className="size-3" />
      {Math.abs(percent).toFixed(1)}% {isUp ? 'more' : 'less'} than the period before ({formatCents(previous)}
      )
    </span>
  );
}

export default function AnalyticsPage() {
  usePageTitle('Analytics');
  const { data: viewer } = useViewer();
  const isPro = viewer ? viewerFacts(viewer).isPro : false;
  const [range, setRange] = useState<AnalyticsRange>('12m');
  const report = useAnalytics(range, isPro);

  useEffect(() => {
    if (!viewer || isPro) return;
    // A team member cannot upgrade (record 274): they are told the owner can add it.
    if (viewerFacts(viewer).isTeamMember) notify.info('Not included', MEMBER_LOCK_TEXTS.analytics);
    else notify.info('Pro feature', ANALYTICS_TEXTS.proOnly);
  }, [viewer, isPro]);

  if (!viewer) return <PageLoader />;
  if (!isPro) return <Navigate to={paths.dashboard} replace />;
  if (report.isPending) return <PageLoader />;
  if (report.isError) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold text-white">Analytics</h1>
        <p role="alert" className="text-zinc-300">
          Your analytics could not be loaded.
        </p>
        <Button variant="outline" onClick={() => report.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const data = report.data;
  const rangeLabel = ANALYTICS_RANGES.find((item) => item.id === range)?.label ?? '';

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Analytics</h1>
          <p className="mt-1 text-zinc-400">Your earnings, releases and payouts at a glance.</p>
        </div>
        <div className="flex items-center gap-3">
          {report.isFetching ? <Spinner className="size-4 text-brand-400" label="Updating" /> : null}
          <fieldset className="flex rounded-lg border border-ink-700 p-1 text-sm">
            <legend className="sr-only">Period</legend>
            {ANALYTICS_RANGES.map((item) => (
              <label
                key={item.id}
                className={cn(
                  'cursor-pointer rounded-md px-3 py-1.5',
                  range === item.id ? 'bg-brand-600 text-white' : 'text-zinc-300 hover:text-white',
                )}
              >
                <input
                  type="radio"
                  name="range"
                  className="sr-only"
                  checked={range === item.id}
                  onChange={() => setRange(item.id)}
                />
                {item.label}
              </label>
            ))}
          </fieldset>
        </div>
      </header>

      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Kpi
          label={`Earnings · ${rangeLabel}`}
          value={formatCents(data.totals.earningsInRangeCents)}
          testId="earnings-in-range"
          detail={
            <Change
              current={data.totals.earningsInRangeCents}
              previous={data.totals.earningsPreviousRangeCents}
            />
          }
        />
        <Kpi
          label="Total earnings (all time)"
          value={formatCents(data.totals.totalEarningsCents)}
          testId="analytics-total-earnings"
          detail={
            data.totals.bestPeriod
              ? `Best ${data.bucket}: ${formatPeriod(data.totals.bestPeriod.start, data.bucket)} (${formatCents(data.totals.bestPeriod.earningsCents)})`
              : undefined
          }
        />
        <Kpi
          label="Available balance"
          value={formatCents(data.totals.balanceCents)}
          detail={`${formatCents(data.totals.pendingBalanceCents)} pending`}
        />
        <Kpi
          label="Paid out"
          value={formatCents(data.totals.withdrawnCents)}
          detail="Completed withdrawals"
        />
      </section>
      <p className="text-sm text-zinc-400" data-testid="analytics-share-note">
        Earnings here are your share, as credited to your balance: after the distribution fee and any split
        shares paid to collaborators, with shares received from others included. The store breakdown below is
        gross.
      </p>

      <Card>
        <h2 className="mb-4 text-lg font-semibold text-white">Earnings over time</h2>
        <EarningsChart report={data} />
      </Card>

      <EarningsBreakdown isEnabled={isPro} />

      <ReleaseBreakdown releases={data.releases} />

      <WithdrawalHistory withdrawals={data.withdrawals} />
    </div>
  );
}
