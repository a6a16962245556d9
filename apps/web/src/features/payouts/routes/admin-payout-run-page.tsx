/**
 * /admin/payouts/:id (issue 38): one run, its totals, batches and payouts; the bank-csv file and the
 * bank's confirmation; PayPal's item statuses checked now; a run whose sending failed resumed (nobody is
 * paid twice: the provider batch keeps its key).
 */
import { PAYOUT_PROVIDER_LABELS, WISE_AWAITING_FUNDING_LABEL } from '@tunedrop/shared/schemas/payouts';
import { AlertTriangle, ArrowLeft, Download, RefreshCw, Upload } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePayoutRun, usePollRun, useResumeRun, useUploadConfirmation } from '../api/admin-payouts';
import { PayoutTotals } from '../components/payout-totals';
import { RunItems } from '../components/run-items';

export default function AdminPayoutRunPage() {
  const { id = '' } = useParams();
  const run = usePayoutRun(id);
  const poll = usePollRun(id);
  const resume = useResumeRun(id);
  const upload = useUploadConfirmation(id);
  usePageTitle('Payout run');

  const back = (
    <Link to={paths.adminPayouts} className={buttonClass('ghost', 'sm')}>
      <ArrowLeft aria-hidden className="size-4" /> All payout runs
    </Link>
  );
  if (run.isPending) return <PageLoader />;
  if (run.isError) {
    return (
      <div className="space-y-4">
        {back}
        <h1 className="text-3xl font-bold text-white">Payout run</h1>
        <p role="alert" className="text-zinc-300">
          {errorMessage(run.error, 'This payout run could not be loaded.')}
        </p>
      </div>
    );
  }
  const data = run.data;
  const hasBank = data.batches.some((batch) => batch.provider === 'bank-csv');
  const hasPaypal = data.batches.some((batch) => batch.provider === 'paypal' && batch.providerReference);
  const hasWise = data.items.some((item) => item.provider === 'wise' && item.state === 'sent');
  const awaitingFunding = data.items.filter((item) => item.awaitingFunding).length;
  const isUnsent = data.state === 'planned' || data.state === 'sending';

  const onPoll = () =>
    poll.mutate(undefined, {
      onSuccess: (result) => notify.success('Provider checked', `${result.applied} payouts changed.`),
      onError: (failure) => notify.error(errorMessage(failure, 'The provider could not be checked.')),
    });
  const onResume = () =>
    resume.mutate(undefined, {
      onSuccess: (result) =>
        result.queued
          ? notify.success('Sending again', 'The run resumes where it stopped.')
          : notify.success('A retry is already scheduled', 'The run resumes shortly.'),
      onError: (failure) => notify.error(errorMessage(failure, 'The run could not be resumed.')),
    });
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    upload.mutate(await file.text(), {
      onSuccess: () => notify.success('Confirmation applied', file.name),
      onError: (failure) => notify.error(errorMessage(failure, 'The confirmation could not be applied.')),
    });
  };

  return (
    <div className="space-y-6">
      {back}
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Payout run of {formatDateTime(data.createdAt)}</h1>
          <p className="mt-1 flex items-center gap-2 text-zinc-400">
            <StatusBadge kind="payoutRun" status={data.state} data-testid="run-state" />
            {data.sentAt ? `Sent ${formatDateTime(data.sentAt)}` : 'Not sent yet'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {hasBank ? (
            <a className={buttonClass('outline', 'sm')} href={`/api/admin/payouts/runs/${data.id}/file`}>
              <Download aria-hidden className="size-4" /> Download payout file
            </a>
          ) : null}
          {hasBank ? (
            <label className={buttonClass('outline', 'sm')}>
              <Upload aria-hidden className="size-4" /> Upload bank confirmation
              <input type="file" accept=".csv,text/csv" className="sr-only" onChange={onFile} />
            </label>
          ) : null}
          {hasPaypal || hasWise ? (
            <Button size="sm" variant="outline" onClick={onPoll} disabled={poll.isPending}>
              <RefreshCw aria-hidden className="size-4" /> Check {hasPaypal ? 'PayPal' : 'Wise'} now
            </Button>
          ) : null}
        </div>
      </header>

      {awaitingFunding > 0 ? (
        <Card className="border-amber-500/40" role="status" data-testid="wise-awaiting-funding">
          <p className="text-sm text-amber-100">
            {WISE_AWAITING_FUNDING_LABEL}:{' '}
            {awaitingFunding === 1 ? 'one transfer waits' : `${awaitingFunding} transfers wait`} for your
            money. Wise asks for your own approval (strong customer authentication) to fund them: open Wise,
            fund each transfer from your USD balance, and Wise's events mark each payout paid here.
          </p>
        </Card>
      ) : null}

      {data.error && isUnsent ? (
        <Card className="flex flex-wrap items-center justify-between gap-3 border-red-500/40" role="alert">
          <p className="flex items-center gap-2 text-sm text-red-200" data-testid="run-error">
            <AlertTriangle aria-hidden className="size-4" /> Sending failed: {data.error}
          </p>
          <Button size="sm" onClick={onResume} disabled={resume.isPending}>
            Resume sending
          </Button>
        </Card>
      ) : null}

      <Card className="space-y-4">
        <PayoutTotals totals={data.totals} testId="run-totals" />
        {data.batches.length > 0 ? (
          <ul className="text-xs text-zinc-400" aria-label="Provider batches">
            {data.batches.map((batch) => (
              <li key={batch.id}>
                {PAYOUT_PROVIDER_LABELS[batch.provider]}: {batch.senderBatchId}
                {batch.providerReference ? ` → ${batch.providerReference}` : ' (waiting for the provider)'}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold text-white">Payouts</h2>
        <RunItems runId={data.id} items={data.items} />
      </Card>
    </div>
  );
}
