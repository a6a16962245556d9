/** A run's or a preview's totals (issue 38): payees, blocked, gross, withheld and net. */
import type { PayoutPreview } from '@tunedrop/shared/schemas/payouts';
import { formatCents } from '../../../lib/format';

export function PayoutTotals({ totals, testId }: { totals: PayoutPreview['totals']; testId?: string }) {
  const facts = [
    ['Payees paid', String(totals.payees)],
    ['Blocked', String(totals.blocked)],
    ['Gross', formatCents(totals.grossCents)],
    ['Tax withheld', formatCents(totals.withheldCents)],
    ['Net sent', formatCents(totals.netCents)],
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid={testId}>
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-zinc-400">{label}</dt>
          <dd className="text-sm font-semibold text-zinc-100 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
