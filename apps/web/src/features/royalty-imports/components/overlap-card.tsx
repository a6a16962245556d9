/**
 * Lines of this report that another report already posted (decision 186): how many and how much, by the
 * report that posted them. They are left out of posting; including them takes a confirmation (audited).
 */
import { type ImportSummary, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { CopyCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useIncludeOverlap } from '../api/include-overlap';
import { formatDecimal } from '../lib/decimal';

export function OverlapCard({ summary, canInclude }: { summary: ImportSummary; canInclude: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const include = useIncludeOverlap();
  const overlap = summary.overlap;
  if (!overlap || (overlap.lines === 0 && !overlap.included)) return null;
  const amount = formatDecimal(overlap.amount, summary.currency);
  const doInclude = () =>
    include.mutate(summary.id, {
      onSuccess: () => {
        notify.success('Lines included', `${overlap.lines} lines already posted will be posted again.`);
        setConfirming(false);
      },
      onError: (error) => {
        notify.error(errorMessage(error, 'The lines could not be included.'));
        setConfirming(false);
      },
    });
  return (
    <section aria-labelledby="overlap-title">
      <Card className="border-amber-500/40" data-testid="overlap">
        <h2 id="overlap-title" className="flex items-center gap-2 font-semibold text-amber-300">
          <CopyCheck aria-hidden className="size-4" /> Already posted
        </h2>
        {overlap.lines > 0 ? (
          <>
            <p className="mt-2 text-sm text-zinc-200" data-testid="overlap-summary">
              {overlap.lines} lines ({amount}) of this report were already posted and are left out.
            </p>
            <ul className="mt-2 space-y-1 text-sm text-zinc-300">
              {overlap.reports.map((report) => (
                <li key={report.importId} data-testid="overlap-report">
                  {report.lines} lines · {formatDecimal(report.amount, summary.currency)}:{' '}
                  {ROYALTY_TEXTS.alreadyPostedIn(
                    report.fileName,
                    report.postedAt ? formatDate(report.postedAt) : '—',
                  )}
                </li>
              ))}
            </ul>
            {canInclude ? (
              <Button variant="outline" size="sm" className="mt-3" onClick={() => setConfirming(true)}>
                Include them…
              </Button>
            ) : null}
          </>
        ) : null}
        {overlap.included ? (
          <p className="mt-2 text-sm text-zinc-300" data-testid="overlap-included">
            {overlap.included.lines} lines ({formatDecimal(overlap.included.amount, summary.currency)})
            already posted were included by {overlap.included.by ?? 'an admin'} on{' '}
            {formatDateTime(overlap.included.at)}.
          </p>
        ) : null}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Include lines already posted?"
          description={`${overlap.lines} lines (${amount}) were already posted by another report. Including them pays that money a second time: do it only if they are new sales that look the same. Your confirmation is recorded in the audit log.`}
          confirmLabel="Include and pay again"
          isDestructive
          onConfirm={doInclude}
          isPending={include.isPending}
        />
      </Card>
    </section>
  );
}
