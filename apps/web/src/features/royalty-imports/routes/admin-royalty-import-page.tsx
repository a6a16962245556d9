/**
 * /admin/royalties/:id: one imported report's summary (totals by store, country, period and usage type,
 * matched vs unmatched, refunds, refused lines with their line numbers), and Post or Delete it.
 */
import { multiplyDecimal } from '@tunedrop/shared/money';
import { ROYALTY_PHASE_LABELS, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { AlertTriangle, ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatCents, formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePostingFigures } from '../api/posting-figures';
import { useReportWarnings } from '../api/report-checks';
import { useDeleteImport, useImportSummary, usePostImport } from '../api/royalty-imports';
import { ImportProgressBar, RUNNING_PHASES } from '../components/import-progress';
import { ImportRetryNotice } from '../components/import-retry';
import { FORMAT_SHORT, periodText } from '../components/imports-list';
import { OverlapCard } from '../components/overlap-card';
import { PostingFiguresList, postingFiguresText } from '../components/posting-figures';
import { ReportRateCard } from '../components/report-rate-card';
import { ReportWarnings } from '../components/report-warnings';
import { TotalsTable } from '../components/totals-table';
import { UnmatchedQueue } from '../components/unmatched-queue';
import { formatDecimal } from '../lib/decimal';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className="text-sm text-zinc-100">{children}</dd>
    </div>
  );
}

export default function AdminRoyaltyImportPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const summary = useImportSummary(id);
  const post = usePostImport();
  const remove = useDeleteImport();
  // Open sanity warnings hold the report back (record 187); the server refuses posting too.
  const warnings = useReportWarnings(
    id,
    Boolean(summary.data && !RUNNING_PHASES.has(summary.data.progress.phase)),
  );
  const [confirming, setConfirming] = useState<'post' | 'delete' | null>(null);
  usePageTitle(summary.data ? `Import ${summary.data.fileName}` : 'Royalty import');
  // Credited, held, fee and suspense: computed for the confirmation, read back after posting (record 189).
  const isPostedNow = summary.data?.status === 'posted';
  const figures = usePostingFigures(id, isPostedNow, confirming === 'post' || isPostedNow);

  if (summary.isPending) return <PageLoader />;
  if (summary.isError) {
    return (
      <div className="space-y-4">
        <Link to={paths.adminRoyalties} className={buttonClass('ghost', 'sm')}>
          <ArrowLeft aria-hidden className="size-4" /> All imports
        </Link>
        <h1 className="text-3xl font-bold text-white">Royalty import</h1>
        <p role="alert" className="text-zinc-300">
          {errorMessage(summary.error, 'This import could not be loaded.')}
        </p>
      </div>
    );
  }
  const data = summary.data;
  const isPosted = data.status === 'posted';
  const canPost = data.status === 'staged' && data.errors.length === 0 && data.progress.phase === 'ready';
  const isRunning = RUNNING_PHASES.has(data.progress.phase);
  const hasOpenWarnings = (warnings.data?.openCount ?? 0) > 0;
  // A non-USD report's rate can be set or changed until it is posted (record 187).
  const canSetRate = !isPosted && !isRunning && data.currency !== '' && data.currency !== 'USD';
  const matchedUsd = multiplyDecimal(data.matched.amount, data.exchangeRate || '1');

  const doPost = () =>
    post.mutate(data.id, {
      onSuccess: () => {
        notify.success('Posting', 'The report is being posted; this page shows its progress.');
        setConfirming(null);
      },
      onError: (error) => {
        notify.error(errorMessage(error, 'The report could not be posted.'));
        setConfirming(null);
      },
    });
  const doDelete = () =>
    remove.mutate(data.id, {
      onSuccess: () => {
        notify.success('Import deleted', data.fileName);
        navigate(paths.adminRoyalties);
      },
      onError: (error) => {
        notify.error(errorMessage(error, 'The import could not be deleted.'));
        setConfirming(null);
      },
    });

  return (
    <div className="space-y-6">
      <Link to={paths.adminRoyalties} className={buttonClass('ghost', 'sm')}>
        <ArrowLeft aria-hidden className="size-4" /> All imports
      </Link>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="break-all text-2xl font-bold text-white sm:text-3xl">{data.fileName}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-zinc-400">
            {isRunning ? (
              <span data-testid="import-phase" className="font-semibold text-zinc-200">
                {ROYALTY_PHASE_LABELS[data.progress.phase]}
              </span>
            ) : (
              <StatusBadge kind="royaltyImport" status={data.status} data-testid="import-status" />
            )}
            {FORMAT_SHORT[data.format]} · {periodText(data)}
          </p>
        </div>
        {isPosted ? null : (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setConfirming('delete')}>
              Delete import
            </Button>
            <Button onClick={() => setConfirming('post')} disabled={!canPost || hasOpenWarnings}>
              Post to balances
            </Button>
          </div>
        )}
      </header>

      {isRunning ? <ImportProgressBar progress={data.progress} lineCount={data.lineCount} /> : null}
      <ImportRetryNotice item={data} />
      {data.progress.postError ? (
        <Card className="border-red-500/40" role="alert">
          <p className="text-sm text-red-300">{data.progress.postError}</p>
        </Card>
      ) : null}
      {data.errors.length > 0 ? (
        <Card className="border-red-500/40" role="alert">
          <h2 className="flex items-center gap-2 font-semibold text-red-300">
            <AlertTriangle aria-hidden className="size-4" /> {ROYALTY_TEXTS.notPostable}
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-zinc-200">
            {data.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </Card>
      ) : null}
      {data.warnings.length > 0 ? (
        <Card className="border-amber-500/40">
          <h2 className="font-semibold text-amber-300">Warnings</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-zinc-200">
            {data.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </Card>
      ) : null}

      {canSetRate ? (
        <ReportRateCard
          key={data.exchangeRate}
          importId={data.id}
          currency={data.currency}
          rate={data.exchangeRate}
        />
      ) : null}
      {isRunning ? null : <ReportWarnings importId={data.id} currency={data.currency} isPosted={isPosted} />}

      <OverlapCard summary={data} canInclude={canPost} />

      <Card>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Total in the report">
            <span className="font-semibold" title={data.totalAmount}>
              {formatDecimal(data.totalAmount, data.currency)}
            </span>
          </Fact>
          <Fact label="Exchange rate">
            1 {data.currency} = {data.exchangeRate} USD
          </Fact>
          <Fact label="Lines">
            {data.lineCount} read · {data.refusedCount} refused
          </Fact>
          <Fact label="Imported">{formatDateTime(data.createdAt)}</Fact>
          <Fact label="Matched">
            <span data-testid="matched-lines">{data.matched.lines} lines</span> ·{' '}
            {formatDecimal(data.matched.amount, data.currency)}
          </Fact>
          <Fact label="Unmatched (held in suspense)">
            <span data-testid="unmatched-lines">{data.unmatched.lines} lines</span> ·{' '}
            {formatDecimal(data.unmatched.amount, data.currency)}
          </Fact>
          <Fact label="Refunds and returns">
            {data.refunds.lines} lines · {formatDecimal(data.refunds.amount, data.currency)}
          </Fact>
          {data.sender || data.messageId ? (
            <Fact label="Sender · message">
              {data.sender ?? '—'} · {data.messageId ?? '—'}
            </Fact>
          ) : null}
          {isPosted ? (
            <>
              <Fact label="Posted">{data.postedAt ? formatDateTime(data.postedAt) : '—'}</Fact>
              <Fact label="Credited">
                <span data-testid="posted-cents">{formatCents(data.postedCents ?? 0)}</span> to{' '}
                {data.postedArtists ?? 0} artist{data.postedArtists === 1 ? '' : 's'}
              </Fact>
              <Fact label="Rounding residue (kept)">{data.residue ?? '0'} USD</Fact>
            </>
          ) : null}
        </dl>
      </Card>
      {isPosted && figures.data?.posted ? (
        <Card className="space-y-3">
          <h2 className="font-semibold text-white">What this posting did</h2>
          <PostingFiguresList figures={figures.data} />
        </Card>
      ) : null}

      <section aria-label="Totals" className="grid gap-4 lg:grid-cols-2">
        <TotalsTable title="By store" rows={data.byStore} currency={data.currency} />
        <TotalsTable title="By country" rows={data.byCountry} currency={data.currency} />
        <TotalsTable title="By period" rows={data.byPeriod} currency={data.currency} />
        <TotalsTable title="By usage type" rows={data.byUsageType} currency={data.currency} />
      </section>

      <section aria-labelledby="refused-title" className="space-y-2">
        <h2 id="refused-title" className="text-xl font-semibold text-white">
          Refused lines
        </h2>
        {data.refused.length === 0 ? (
          <p className="text-sm text-zinc-400">Every line of the file was read.</p>
        ) : (
          <Card className="p-0">
            <ul
              className="max-h-80 divide-y divide-ink-800 overflow-y-auto text-sm"
              data-testid="refused-lines"
            >
              {data.refused.map((line) => (
                <li key={`${line.line}:${line.reason}`} className="flex gap-3 px-4 py-2">
                  <span className="w-20 shrink-0 tabular-nums text-zinc-400">Line {line.line}</span>
                  <span className="text-zinc-100">{line.reason}</span>
                </li>
              ))}
            </ul>
            {data.refusedCount > data.refused.length ? (
              <p className="px-4 py-2 text-xs text-zinc-400">
                The first {data.refused.length} of {data.refusedCount} refused lines.
              </p>
            ) : null}
          </Card>
        )}
      </section>

      {isPosted ? null : <UnmatchedQueue />}

      <ConfirmDialog
        open={confirming === 'post'}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title="Post this report?"
        description={`${formatDecimal(data.matched.amount, data.currency)}${
          data.currency === 'USD' ? '' : ` (about ${formatDecimal(matchedUsd, 'USD')})`
        } in ${data.matched.lines} matched lines. ${
          data.overlap && data.overlap.lines > 0
            ? `${data.overlap.lines} lines already posted by another report are left out. `
            : ''
        }${data.unmatched.lines > 0 ? `${data.unmatched.lines} unmatched lines are held in suspense. ` : ''}${
          figures.data && !figures.data.posted
            ? `${postingFiguresText(figures.data)} `
            : figures.isError
              ? // A refusal the posting would make (a sale no contract term matches, record 285), before it.
                `${errorMessage(figures.error, 'The figures could not be computed.')} `
              : 'Computing the figures… '
        }Posted earnings cannot be changed or deleted.`}
        confirmLabel="Post report"
        onConfirm={doPost}
        isPending={post.isPending}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title="Delete this import?"
        description={`${data.fileName} and its ${data.lineCount} staged lines will be removed. Nothing was paid from it; you can import the file again.`}
        confirmLabel="Delete import"
        isDestructive
        onConfirm={doDelete}
        isPending={remove.isPending}
      />
    </div>
  );
}
