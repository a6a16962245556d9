/** The three figures of the wallet: available, total earnings (all time), pending (processing). */
import { Clock, TrendingUp, Wallet } from 'lucide-react';
import type { ComponentType } from 'react';
import { Card } from '../../../components/ui/card';
import { formatCents } from '../../../lib/format';

function Figure({
  label,
  caption,
  cents,
  icon: Icon,
  testId,
}: {
  label: string;
  caption: string;
  cents: number;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  testId: string;
}) {
  return (
    <Card className="flex flex-col gap-2">
      <div className="flex items-center justify-between text-sm text-zinc-400">
        <h2 className="font-medium text-zinc-300">{label}</h2>
        <Icon aria-hidden className="size-5 text-brand-400" />
      </div>
      <p className="text-3xl font-bold text-white tabular-nums" data-testid={testId}>
        {formatCents(cents)}
      </p>
      <p className="text-xs text-zinc-400">{caption}</p>
    </Card>
  );
}

export function BalanceCards({
  balanceCents,
  totalEarningsCents,
  pendingBalanceCents,
}: {
  balanceCents: number;
  totalEarningsCents: number;
  pendingBalanceCents: number;
}) {
  return (
    <section aria-label="Balances" className="grid gap-4 sm:grid-cols-3">
      <Figure
        label="Available Balance"
        caption="Ready to withdraw"
        cents={balanceCents}
        icon={Wallet}
        testId="available-balance"
      />
      <Figure
        label="Total Earnings"
        caption="All time"
        cents={totalEarningsCents}
        icon={TrendingUp}
        testId="total-earnings"
      />
      <Figure
        label="Pending"
        caption="Processing"
        cents={pendingBalanceCents}
        icon={Clock}
        testId="pending-balance"
      />
    </section>
  );
}
