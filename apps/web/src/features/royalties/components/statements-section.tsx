/** Statements per sales period (every plan), each downloadable as CSV and PDF. */
import { FileText } from 'lucide-react';
import { buttonClass } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { formatCents, formatPeriod } from '../../../lib/format';
import { statementUrl, useStatements } from '../api/ledger';

const periodLabel = (period: string) => formatPeriod(`${period}-01`, 'month');

export function StatementsSection() {
  const statements = useStatements();
  const items = statements.data?.items ?? [];
  return (
    <section aria-labelledby="statements-title" className="space-y-3">
      <div>
        <h2 id="statements-title" className="text-xl font-semibold text-white">
          Statements
        </h2>
        <p className="text-sm text-zinc-400">Your earnings per sales month, by store, country and track.</p>
      </div>
      {statements.isPending ? (
        <Spinner className="text-brand-400" />
      ) : statements.isError ? (
        <p role="alert" className="text-sm text-red-400">
          Your statements could not be loaded.
        </p>
      ) : items.length === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="statements-empty">
          <FileText aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500" />
          <p>
            No statements yet. A statement for each sales month appears here, as CSV and PDF, once the first
            store report with your music has been posted.
          </p>
        </Card>
      ) : (
        <ul className="divide-y divide-ink-800 rounded-xl border border-ink-700 bg-ink-900">
          {items.map((item) => (
            <li
              key={item.period}
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
              data-testid="statement"
            >
              <div>
                <p className="font-medium text-white">{periodLabel(item.period)}</p>
                <p className="text-sm text-zinc-400">
                  <span className="text-zinc-100 tabular-nums">{formatCents(item.amountCents)}</span> ·{' '}
                  {item.lines} line{item.lines === 1 ? '' : 's'}
                </p>
              </div>
              <div className="flex gap-2">
                <a
                  href={statementUrl(item.period, 'csv')}
                  download
                  className={buttonClass('outline', 'sm')}
                  aria-label={`Download the ${periodLabel(item.period)} statement as CSV`}
                >
                  CSV
                </a>
                <a
                  href={statementUrl(item.period, 'pdf')}
                  download
                  className={buttonClass('outline', 'sm')}
                  aria-label={`Download the ${periodLabel(item.period)} statement as PDF`}
                >
                  PDF
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
