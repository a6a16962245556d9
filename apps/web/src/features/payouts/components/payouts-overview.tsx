/**
 * The top of the artist's Payouts page (issue 38): the payout method, the next run's date, the balance
 * against the minimum, and either the next payout's figures (gross, tax withheld, net) or what stops it,
 * in plain words: the server plans this account's payout and rolls it back, so this and the run agree.
 */
import { AlertTriangle, CalendarDays, CheckCircle2 } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { formatCents, formatLongDate } from '../../../lib/format';
import type { PayoutsPageData } from './payout-history';

const METHOD_LABELS: Record<string, string> = {
  bank: 'Bank account',
  paypal: 'PayPal',
  stripe: 'Stripe',
  wise: 'Wise',
};

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className="text-sm text-zinc-100" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function PayoutsOverview({ data, methodText }: { data: PayoutsPageData; methodText: string | null }) {
  const method = data.method ? (METHOD_LABELS[data.method] ?? null) : null;
  return (
    <Card className="space-y-4" data-testid="payouts-overview">
      <dl className="grid gap-4 sm:grid-cols-4">
        <Fact label="Payout method" testId="payout-method">
          {methodText ?? method ?? 'None yet: add one under Payment Settings below.'}
        </Fact>
        <Fact label="Next payout run" testId="next-run">
          {data.nextRunDate ? (
            <span className="inline-flex items-center gap-1">
              <CalendarDays aria-hidden className="size-4 text-brand-400" />
              {formatLongDate(data.nextRunDate)}
            </span>
          ) : (
            'Not scheduled: payouts are sent when the operator runs them.'
          )}
        </Fact>
        <Fact label="Available balance" testId="payout-balance">
          {formatCents(data.balanceCents)}
        </Fact>
        <Fact label="Minimum payout" testId="payout-minimum">
          {formatCents(data.minimumCents)}
        </Fact>
      </dl>
      {data.blockers.length > 0 ? (
        <div
          className="rounded-lg border border-amber-500/40 bg-amber-500/10 p-4"
          data-testid="payout-blockers"
        >
          <h2 className="flex items-center gap-2 text-sm font-semibold text-amber-200">
            <AlertTriangle aria-hidden className="size-4" /> What stops your next payout
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-zinc-200">
            {data.blockers.map((blocker) => (
              <li key={blocker}>{blocker}</li>
            ))}
          </ul>
        </div>
      ) : data.next ? (
        <div
          className="rounded-lg border border-emerald-500/40 bg-emerald-500/10 p-4"
          data-testid="next-payout"
        >
          <h2 className="flex items-center gap-2 text-sm font-semibold text-emerald-200">
            <CheckCircle2 aria-hidden className="size-4" /> Your next payout
          </h2>
          <p className="mt-2 text-sm text-zinc-200">
            {formatCents(data.next.grossCents)} from your balance
            {data.next.withheldCents > 0
              ? `, less ${formatCents(data.next.withheldCents)} US tax withheld`
              : ''}
            : you receive <strong className="text-white">{formatCents(data.next.netCents)}</strong>.
          </p>
          {data.next.withholding ? (
            <p className="mt-1 text-xs text-zinc-400">Withholding: {data.next.withholding}</p>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
