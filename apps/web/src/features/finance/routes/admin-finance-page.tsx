/**
 * /admin/finance (admin only, issue 25, record 189): per posted report and per period, gross in the report
 * currency and in USD, fee, credited, held, suspense and rounding residue; withdrawals paid and pending;
 * the liability to artists beside the ledger's; operator revenue; CSV export.
 */
import type { FinanceOverview } from '@tunedrop/shared/schemas/finance';
import { CheckCircle2, Download, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { FINANCE_CSV_URL, useFinanceOverview } from '../api/finance';
import { formatUsd } from '../lib/usd';

const th = 'px-3 py-1.5 font-medium';
const num = 'px-3 py-1.5 text-right tabular-nums';

export default function AdminFinancePage() {
  usePageTitle('Finance');
  const overview = useFinanceOverview();
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Finance</h1>
          <p className="mt-1 text-sm text-zinc-400">
            What came in, what the operator kept, what was credited, held or is in suspense, and what is owed.
          </p>
        </div>
        <a href={FINANCE_CSV_URL} download className={buttonClass('outline', 'sm')} data-testid="finance-csv">
          <Download aria-hidden className="size-4" /> Export CSV
        </a>
      </header>
      {overview.isPending ? (
        <PageLoader />
      ) : overview.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(overview.error, 'Failed to load the finance overview.')}
        </p>
      ) : (
        <Overview data={overview.data} />
      )}
    </div>
  );
}

function Overview({ data }: { data: FinanceOverview }) {
  const l = data.liability;
  return (
    <>
      <section aria-labelledby="liability-title" className="grid gap-4 lg:grid-cols-2">
        <Card className="space-y-2">
          <h2 id="liability-title" className="text-lg font-semibold text-white">
            Owed to artists
          </h2>
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-zinc-400">Balances</dt>
            <dd className="text-right tabular-nums">{formatCents(l.balancesCents)}</dd>
            <dt className="text-zinc-400">Pending withdrawals</dt>
            <dd className="text-right tabular-nums">{formatCents(l.pendingWithdrawalsCents)}</dd>
            <dt className="text-zinc-400">Held for pending invitations</dt>
            <dd className="text-right tabular-nums">{formatCents(l.heldSharesCents)}</dd>
            <dt className="font-semibold text-zinc-200">Total</dt>
            <dd className="text-right font-semibold tabular-nums" data-testid="liability-total">
              {formatCents(l.totalCents)}
            </dd>
            <dt className="text-zinc-400">From the ledger</dt>
            <dd className="text-right tabular-nums" data-testid="liability-ledger">
              {formatCents(l.ledgerCents)}
            </dd>
          </dl>
          <p
            className={`flex items-center gap-2 text-sm ${l.reconciles ? 'text-emerald-300' : 'text-red-300'}`}
            data-testid="liability-status"
          >
            {l.reconciles ? (
              <CheckCircle2 aria-hidden className="size-4" />
            ) : (
              <XCircle aria-hidden className="size-4" />
            )}
            {l.reconciles ? 'Reconciles with the ledger' : 'Does not reconcile with the ledger'}
          </p>
        </Card>
        <Card className="space-y-2">
          <h2 className="text-lg font-semibold text-white">Operator revenue</h2>
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-zinc-400">Distribution fees</dt>
            <dd className="text-right tabular-nums" data-testid="revenue-fees">
              {formatCents(data.operatorRevenue.feeCents)}
            </dd>
            <dt className="text-zinc-400">Released suspense</dt>
            <dd className="text-right tabular-nums">
              {formatCents(data.operatorRevenue.suspenseReleasedCents)}
            </dd>
            <dt className="font-semibold text-zinc-200">Total</dt>
            <dd className="text-right font-semibold tabular-nums">
              {formatCents(data.operatorRevenue.totalCents)}
            </dd>
          </dl>
        </Card>
      </section>

      <FinanceTable
        id="reports"
        title="By report"
        empty="No report has been posted yet."
        scrollLabel="Reports (scrolls sideways)"
        testId="finance-reports"
        columns={[
          'Report',
          'Period',
          '>Gross (report)',
          '>Gross USD',
          '>Fee',
          '>Credited',
          '>Held',
          '>Suspense',
          '>Residue',
          'Reconciles',
        ]}
      >
        {data.reports.map((r) => (
          <tr key={r.importId} data-testid={`finance-report-${r.fileName}`}>
            <th
              scope="row"
              className="max-w-56 truncate px-3 py-1.5 font-normal text-zinc-100"
              title={r.fileName}
            >
              {r.fileName}
            </th>
            <td className="px-3 py-1.5">{r.period}</td>
            <td className={num} title={r.grossReport}>
              {r.grossReport} {r.currency}
            </td>
            <td className={num} title={r.grossUsd}>
              {formatUsd(r.grossUsd)}
            </td>
            <td className={num} data-testid="report-fee">
              {formatCents(r.feeCents)}
            </td>
            <td className={num} data-testid="report-credited">
              {formatCents(r.creditedCents)}
            </td>
            <td className={num} data-testid="report-held">
              {formatCents(r.heldCents)}
            </td>
            <td className={num} title={r.suspenseUsd} data-testid="report-suspense">
              {formatUsd(r.suspenseUsd)}
            </td>
            <td className={num} title={r.residueUsd}>
              {r.residueUsd}
            </td>
            <td className="px-3 py-1.5">
              {Number(r.differenceUsd) === 0 ? 'Yes' : `Off by ${r.differenceUsd}`}
            </td>
          </tr>
        ))}
      </FinanceTable>

      <FinanceTable
        id="periods"
        title="By period"
        empty="Nothing yet."
        scrollLabel="Periods (scrolls sideways)"
        columns={[
          'Period',
          '>Reports',
          '>Gross USD',
          '>Fee',
          '>Credited',
          '>Held',
          '>Suspense',
          '>Residue',
          '>Withdrawals paid',
          '>Withdrawals pending',
        ]}
      >
        {data.periods.map((p) => (
          <tr key={p.period}>
            <th scope="row" className="px-3 py-1.5 font-normal text-zinc-100">
              {p.period}
            </th>
            <td className={num}>{p.reports}</td>
            <td className={num} title={p.grossUsd}>
              {formatUsd(p.grossUsd)}
            </td>
            <td className={num}>{formatCents(p.feeCents)}</td>
            <td className={num}>{formatCents(p.creditedCents)}</td>
            <td className={num}>{formatCents(p.heldCents)}</td>
            <td className={num} title={p.suspenseUsd}>
              {formatUsd(p.suspenseUsd)}
            </td>
            <td className={num}>{p.residueUsd}</td>
            <td className={num}>{formatCents(p.withdrawalsPaidCents)}</td>
            <td className={num}>{formatCents(p.withdrawalsPendingCents)}</td>
          </tr>
        ))}
      </FinanceTable>
    </>
  );
}

/**
 * A titled section holding one scrolling table (or `empty` when it has no rows). A column label starting
 * with '>' is right-aligned (a figure).
 */
function FinanceTable({
  id,
  title,
  empty,
  scrollLabel,
  testId,
  columns,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  scrollLabel: string;
  testId?: string;
  columns: string[];
  children: ReactNode[];
}) {
  const titleId = `${id}-title`;
  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <h2 id={titleId} className="text-xl font-semibold text-white">
        {title}
      </h2>
      {children.length === 0 ? (
        <p className="text-sm text-zinc-400">{empty}</p>
      ) : (
        <Card className="p-0">
          <section
            className="overflow-x-auto"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling table must be reachable by keyboard
            tabIndex={0}
            aria-label={scrollLabel}
          >
            <table aria-labelledby={titleId} className="w-full text-left text-sm" data-testid={testId}>
              <thead className="text-zinc-400">
                <tr>
                  {columns.map((column) =>
                    column.startsWith('>') ? (
                      <th key={column} scope="col" className={`${th} text-right`}>
                        {column.slice(1)}
                      </th>
                    ) : (
                      <th key={column} scope="col" className={th}>
                        {column}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-800">{children}</tbody>
            </table>
          </section>
        </Card>
      )}
    </section>
  );
}
