/**
 * /admin/payouts (issue 38): preview a run (who is paid, how much, the withholding, who is blocked and why)
 * before sending it, run it, and the runs so far. The providers and the schedule are on /admin/settings.
 */
import { PAYOUT_PROVIDER_LABELS } from '@tunedrop/shared/schemas/payouts';
import { Eye, Send } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatCents, formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePayoutPreview, usePayoutRuns, useStartPayoutRun } from '../api/admin-payouts';
import { PayoutTotals } from '../components/payout-totals';

const TRIGGER_LABELS = { manual: 'By hand', schedule: 'Monthly', withdrawal: 'Withdrawal request' } as const;

function Preview() {
  const preview = usePayoutPreview(true);
  if (preview.isPending) return <PageLoader />;
  if (preview.isError) {
    return (
      <p role="alert" className="text-sm text-zinc-300" data-testid="preview-error">
        {errorMessage(preview.error, 'The preview could not be made.')}
      </p>
    );
  }
  return (
    <div className="space-y-3" data-testid="payout-preview">
      <PayoutTotals totals={preview.data.totals} testId="preview-totals" />
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Payout preview">
          <thead className="text-xs text-zinc-400">
            <tr>
              <th className="py-2 pr-3 font-medium">Payee</th>
              <th className="py-2 pr-3 font-medium">Provider</th>
              <th className="py-2 pr-3 text-right font-medium">Gross</th>
              <th className="py-2 pr-3 text-right font-medium">Withheld</th>
              <th className="py-2 pr-3 text-right font-medium">Net</th>
              <th className="py-2 font-medium">Withholding or reason blocked</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-800 text-zinc-200">
            {preview.data.items.map((item) => (
              <tr key={item.accountId} data-testid="preview-row">
                <td className="py-2 pr-3">
                  {item.name}
                  <span className="block text-xs text-zinc-400">{item.email}</span>
                </td>
                <td className="py-2 pr-3">{item.provider ? PAYOUT_PROVIDER_LABELS[item.provider] : '—'}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.grossCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.withheldCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.netCents)}</td>
                <td className="py-2 text-xs">
                  {item.blocked ? (
                    <span className="text-amber-300">Blocked: {item.blocked.reason}</span>
                  ) : (
                    (item.withholding ?? '')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export default function AdminPayoutsPage() {
  usePageTitle('Payouts');
  const navigate = useNavigate();
  const runs = usePayoutRuns();
  const start = useStartPayoutRun();
  const [isPreviewing, setIsPreviewing] = useState(false);
  const [previewKey, setPreviewKey] = useState(0);
  const [isConfirming, setIsConfirming] = useState(false);

  const run = () =>
    start.mutate(undefined, {
      onSuccess: (created) => {
        setIsConfirming(false);
        notify.success(
          'Payout run started',
          `${created.totals.payees} payees, ${formatCents(created.totals.netCents)} net.`,
        );
        navigate(paths.adminPayoutRun(created.id));
      },
      onError: (failure) => {
        setIsConfirming(false);
        notify.error(errorMessage(failure, 'The payout run could not be started.'));
      },
    });

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Payouts</h1>
          <p className="mt-1 text-zinc-400">
            Pay every balance due through the providers set up in{' '}
            <Link className="underline" to={paths.adminSettings}>
              Settings
            </Link>
            .
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            onClick={() => {
              setIsPreviewing(true);
              setPreviewKey((key) => key + 1);
            }}
          >
            <Eye aria-hidden className="size-4" /> Preview a run
          </Button>
          <Button onClick={() => setIsConfirming(true)} disabled={start.isPending}>
            <Send aria-hidden className="size-4" /> Run payouts now
          </Button>
        </div>
      </header>

      {isPreviewing ? (
        <Card className="space-y-3">
          <h2 className="text-lg font-semibold text-white">Preview: what a run would pay now</h2>
          <p className="text-sm text-zinc-400">Nothing is sent and no balance changes until you run it.</p>
          <Preview key={previewKey} />
        </Card>
      ) : null}

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold text-white">Payout runs</h2>
        {runs.isPending ? (
          <PageLoader />
        ) : runs.isError ? (
          <p role="alert" className="text-sm text-zinc-300">
            {errorMessage(runs.error, 'Failed to load the payout runs.')}
          </p>
        ) : runs.data.runs.length === 0 ? (
          <p className="text-sm text-zinc-300" data-testid="runs-empty">
            No payout runs yet. Preview one to see who would be paid.
          </p>
        ) : (
          <ul className="divide-y divide-ink-800" aria-label="Payout runs">
            {runs.data.runs.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <Link className="font-medium text-white underline" to={paths.adminPayoutRun(item.id)}>
                    Run of {formatDateTime(item.createdAt)}
                  </Link>
                  <p className="text-xs text-zinc-400">
                    {TRIGGER_LABELS[item.trigger]} · {item.totals.payees} paid · {item.totals.blocked} blocked
                    · {formatCents(item.totals.netCents)} net
                  </p>
                </div>
                <StatusBadge kind="payoutRun" status={item.state} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setIsConfirming}
        title="Run payouts now?"
        description="Every balance due is sent to its provider now. Blocked payees are listed with the reason and keep their balance."
        confirmLabel="Run payouts"
        onConfirm={run}
        isPending={start.isPending}
      />
    </div>
  );
}
