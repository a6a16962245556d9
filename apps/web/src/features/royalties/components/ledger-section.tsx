/**
 * The ledger: every change to the available balance with its cause (earnings per report and period,
 * withdrawals with their status, refunds, adjustments) and the balance after it, newest first, paged.
 */

import type { WithdrawalStatus } from '@tunedrop/shared';
import type { LedgerEntry, LedgerEntryKind } from '@tunedrop/shared/schemas/royalties';
import { BookOpen } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { StatusBadge, WITHDRAWAL_STATUS_LABELS } from '../../../components/ui/status-badge';
import { formatCents, formatDate } from '../../../lib/format';
import { useLedger } from '../api/ledger';

const KIND_LABELS: Record<LedgerEntryKind, string> = {
  earnings: 'Earnings',
  withdrawal: 'Withdrawal',
  withdrawal_refund: 'Refund',
  adjustment: 'Adjustment',
};
const KIND_TONES = {
  earnings: 'green',
  withdrawal: 'blue',
  withdrawal_refund: 'neutral',
  adjustment: 'yellow',
} as const satisfies Record<LedgerEntryKind, string>;

const isWithdrawalStatus = (status: string | null): status is WithdrawalStatus =>
  status !== null && status in WITHDRAWAL_STATUS_LABELS;

function Amount({ cents }: { cents: number }) {
  return (
    <span className={cn('tabular-nums', cents >= 0 ? 'text-emerald-300' : 'text-zinc-100')}>
      {cents >= 0 ? '+' : '−'}
      {formatCents(Math.abs(cents))}
    </span>
  );
}

function Status({ entry }: { entry: LedgerEntry }) {
  if (entry.kind === 'withdrawal' && isWithdrawalStatus(entry.status))
    return <StatusBadge kind="withdrawal" status={entry.status} />;
  return null;
}

export function LedgerSection() {
  // Cursor pages: the stack holds the cursors of the pages before this one (Newer goes back one).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const ledger = useLedger(cursor);
  const items = ledger.data?.items ?? [];
  const page = cursors.length;

  return (
    <section aria-labelledby="ledger-title" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="ledger-title" className="text-xl font-semibold text-white">
            Ledger
          </h2>
          <p className="text-sm text-zinc-400">
            Every earning, withdrawal and adjustment, with your available balance after it.
          </p>
        </div>
        {ledger.isFetching && !ledger.isPending ? (
          <Spinner className="size-4 text-brand-400" label="Updating" />
        ) : null}
      </div>
      {ledger.isPending ? (
        <Spinner className="text-brand-400" />
      ) : ledger.isError ? (
        <p role="alert" className="text-sm text-red-400">
          Your ledger could not be loaded.{' '}
          <Button variant="outline" size="sm" onClick={() => ledger.refetch()}>
            Try again
          </Button>
        </p>
      ) : items.length === 0 && page === 1 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="ledger-empty">
          <BookOpen aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500" />
          <p>
            Nothing here yet. When a store report with your music is imported and posted (stores report a
            month or two after the streams), its earnings appear here with their period, beside your
            withdrawals and any adjustments.
          </p>
        </Card>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-xl border border-ink-700 md:block">
            <table className="w-full text-left text-sm" data-testid="ledger">
              <thead className="bg-ink-800 text-zinc-300">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Type
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Description
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-800">
                {items.map((entry) => (
                  <tr key={entry.id} data-testid="ledger-entry">
                    <td className="px-3 py-2 whitespace-nowrap text-zinc-400">
                      {formatDate(entry.createdAt)}
                    </td>
                    <td className="px-3 py-2">
                      <Badge tone={KIND_TONES[entry.kind]}>{KIND_LABELS[entry.kind]}</Badge>
                    </td>
                    <td className="px-3 py-2 text-zinc-100">
                      <span className="mr-2">{entry.description}</span>
                      <Status entry={entry} />
                    </td>
                    <td className="px-3 py-2 text-right">
                      <Amount cents={entry.amountCents} />
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums text-zinc-300">
                      {formatCents(entry.balanceCents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-2 md:hidden">
            {items.map((entry) => (
              <li key={entry.id} className="rounded-xl border border-ink-700 bg-ink-900 p-3 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <Badge tone={KIND_TONES[entry.kind]}>{KIND_LABELS[entry.kind]}</Badge>
                  <Amount cents={entry.amountCents} />
                </div>
                <p className="mt-1 text-zinc-100">{entry.description}</p>
                <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-zinc-400">
                  {formatDate(entry.createdAt)} · Balance {formatCents(entry.balanceCents)}{' '}
                  <Status entry={entry} />
                </p>
              </li>
            ))}
          </ul>
          {page > 1 || ledger.data?.nextCursor ? (
            <nav aria-label="Ledger pages" className="flex items-center justify-between gap-3">
              <Button
                variant="outline"
                size="sm"
                disabled={page <= 1}
                onClick={() => setCursors((stack) => stack.slice(0, -1))}
              >
                Newer
              </Button>
              <p className="text-sm text-zinc-400">Page {page}</p>
              <Button
                variant="outline"
                size="sm"
                disabled={!ledger.data?.nextCursor}
                onClick={() => {
                  const next = ledger.data?.nextCursor;
                  if (next) setCursors((stack) => [...stack, next]);
                }}
              >
                Older
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
