/**
 * /admin/finance (admin only, issue 25, record 189; made readable for issue 44): what each posted report
 * brought in and where every cent of it went (fee, credited, held, suspense, rounding), per report and per
 * month; withdrawals; what is owed to artists beside the ledger's figure; operator revenue; CSV export.
 * Every figure is whole cents by the one rule of money/report-cents.ts, so a report's lines add up to its
 * gross on screen; each line says in a sentence what it is. One column of figures at every width.
 */

import { belowTheCent, isZeroDecimal } from '@tunedrop/shared/money';
import type { FinanceOverview, FinancePeriodRow, FinanceReportRow } from '@tunedrop/shared/schemas/finance';
import { CheckCircle2, Download, XCircle } from 'lucide-react';
import { buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { formatCents, formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { FINANCE_CSV_URL, useFinanceOverview } from '../api/finance';

export default function AdminFinancePage() {
  usePageTitle('Finance');
  const overview = useFinanceOverview();
  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Finance</h1>
          <p className="mt-1 max-w-2xl text-sm text-zinc-400">
            Where the stores' money went: what each report brought in, what the operator kept, what artists
            were credited, and what is still owed. Amounts are US dollars, rounded down to the cent as they
            were paid.
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

type Line = {
  label: string;
  /** One short sentence saying what the figure is. */
  note: string;
  cents: number;
  isTotal?: boolean;
  testId?: string;
};

/** Labelled figures: the name and its sentence on the left, the amount right-aligned in one column. */
function Lines({ lines, testId }: { lines: Line[]; testId?: string }) {
  return (
    <dl className="divide-y divide-ink-800 text-sm" data-testid={testId}>
      {lines.map((line) => (
        <div key={line.label} className="grid grid-cols-[1fr_auto] items-baseline gap-x-4 py-2">
          <dt className={line.isTotal ? 'font-semibold text-zinc-100' : 'text-zinc-200'}>
            {line.label}
            <span className="mt-0.5 block text-xs font-normal text-zinc-400">{line.note}</span>
          </dt>
          <dd
            className={`text-right tabular-nums ${line.isTotal ? 'font-semibold text-white' : 'text-zinc-100'}`}
            data-testid={line.testId}
          >
            {formatCents(line.cents)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Overview({ data }: { data: FinanceOverview }) {
  const l = data.liability;
  return (
    <>
      <section aria-labelledby="liability-title" className="grid gap-4 lg:grid-cols-2">
        <Card className="space-y-2">
          <h2 id="liability-title" className="text-lg font-semibold text-white">
            Owed to artists now
          </h2>
          <Lines
            lines={[
              { label: 'Balances', note: 'What artists can withdraw or spend.', cents: l.balancesCents },
              {
                label: 'Withdrawals not yet paid',
                note: 'Requested by artists, waiting for the operator to pay.',
                cents: l.pendingWithdrawalsCents,
              },
              {
                label: 'Held for invitations',
                note: "Collaborators' shares kept until they accept their invitation.",
                cents: l.heldSharesCents,
              },
              {
                label: 'Total owed',
                note: 'The three lines above.',
                cents: l.totalCents,
                isTotal: true,
                testId: 'liability-total',
              },
              {
                label: 'Total from the ledger',
                note: 'The same total, added up from every balance change ever made.',
                cents: l.ledgerCents,
                testId: 'liability-ledger',
              },
            ]}
          />
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
          <h2 className="text-lg font-semibold text-white">Kept by the operator</h2>
          <Lines
            lines={[
              {
                label: 'Distribution fees',
                note: 'The fee taken from artists’ gross earnings at posting.',
                cents: data.operatorRevenue.feeCents,
                testId: 'revenue-fees',
              },
              {
                label: 'Released suspense',
                note: 'Unmatched money nobody claimed, released to the operator.',
                cents: data.operatorRevenue.suspenseReleasedCents,
              },
              {
                label: 'Total kept',
                note: 'The two lines above.',
                cents: data.operatorRevenue.totalCents,
                isTotal: true,
              },
            ]}
          />
        </Card>
      </section>

      <section aria-labelledby="reports-title" className="space-y-3">
        <h2 id="reports-title" className="text-xl font-semibold text-white">
          Reports posted
        </h2>
        {data.reports.length === 0 ? (
          <p className="text-sm text-zinc-400">No report has been posted yet.</p>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2" data-testid="finance-reports">
            {data.reports.map((report) => (
              <li key={report.importId}>
                <ReportCard report={report} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="periods-title" className="space-y-3">
        <h2 id="periods-title" className="text-xl font-semibold text-white">
          By month
        </h2>
        {data.periods.length === 0 ? (
          <p className="text-sm text-zinc-400">Nothing yet.</p>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {data.periods.map((period) => (
              <li key={period.period}>
                <PeriodCard period={period} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** Where a report's money went, line by line: the lines add up to what came in. */
function moneyLines(cents: FinanceReportRow['cents'], residueUsd: string, grossNote: string): Line[] {
  return [
    { label: 'Came in', note: grossNote, cents: cents.grossCents, isTotal: true, testId: 'report-gross' },
    {
      label: 'Operator fee',
      note: 'The distribution fee the operator keeps.',
      cents: cents.feeCents,
      testId: 'report-fee',
    },
    {
      label: 'Credited to artists',
      note: "Added to artists' balances, accepted collaborators' shares included.",
      cents: cents.creditedCents,
      testId: 'report-credited',
    },
    {
      label: 'Held for invitations',
      note: "Collaborators' shares kept until they accept their invitation, and contract reserves until released.",
      cents: cents.heldCents,
      testId: 'report-held',
    },
    {
      label: 'In suspense',
      note: 'Lines that matched no release, kept until assigned to an artist or released.',
      cents: cents.suspenseCents,
      testId: 'report-suspense',
    },
    {
      label: 'Left by rounding',
      note: `Each artist is paid rounded down to the cent; the fractions left (${residueUsd} USD exactly) stay with the operator.`,
      cents: cents.roundingCents,
      testId: 'report-rounding',
    },
  ];
}

function ReportCard({ report }: { report: FinanceReportRow }) {
  const converted =
    report.currency === 'USD'
      ? 'What the stores paid for this report.'
      : `What the stores paid: ${report.grossReport} ${report.currency} at ${report.rate} USD each.`;
  const isReconciled = isZeroDecimal(report.differenceUsd);
  return (
    <Card className="space-y-2" data-testid={`finance-report-${report.fileName}`}>
      <h3 className="break-all font-semibold text-white">{report.fileName}</h3>
      <p className="text-xs text-zinc-400">
        Sales month {report.period} · posted {formatDate(report.postedAt)}
        {belowTheCent(report.grossUsd) !== '0' ? ` · exactly ${report.grossUsd} USD came in` : ''}
      </p>
      <Lines lines={moneyLines(report.cents, report.residueUsd, converted)} />
      <p
        className={`flex items-center gap-2 text-sm ${isReconciled ? 'text-emerald-300' : 'text-red-300'}`}
        data-testid="report-reconciles"
      >
        {isReconciled ? (
          <CheckCircle2 aria-hidden className="size-4" />
        ) : (
          <XCircle aria-hidden className="size-4" />
        )}
        {isReconciled ? 'Adds up to the cent: Yes' : `Does not add up: off by ${report.differenceUsd} USD`}
      </p>
    </Card>
  );
}

function PeriodCard({ period }: { period: FinancePeriodRow }) {
  const reports = `${period.reports} report${period.reports === 1 ? '' : 's'}`;
  return (
    <Card className="space-y-2" data-testid={`finance-period-${period.period}`}>
      <h3 className="font-semibold text-white">{period.period}</h3>
      <Lines
        lines={[
          ...moneyLines(period.cents, period.residueUsd, `What the stores paid, in ${reports}.`),
          {
            label: 'Withdrawals paid',
            note: 'Paid out to artists this month.',
            cents: period.withdrawalsPaidCents,
          },
          {
            label: 'Withdrawals not yet paid',
            note: 'Requested this month, waiting to be paid.',
            cents: period.withdrawalsPendingCents,
          },
        ]}
      />
    </Card>
  );
}
