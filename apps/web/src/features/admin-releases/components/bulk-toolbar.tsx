/**
 * Bulk approve / reject on the Pending tab (issue 26 finding 9): "Select all on this page", then
 * "Approve N" or "Reject N…" with a confirmation naming how many releases. Each release gets the single
 * decision's rules on the server; the ones it refused are listed with the reason.
 */
import {
  ADMIN_RELEASE_MESSAGES,
  type AdminReleaseCard,
  type BulkReviewAction,
  type BulkReviewResult,
} from '@tunedrop/shared/schemas/admin-releases';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { notify } from '../../../components/ui/toast';
import { useBulkReview } from '../api/bulk-review';

const releasesWord = (count: number) => `${count} ${count === 1 ? 'release' : 'releases'}`;

export function BulkToolbar({
  items,
  selected,
  onSelectedChange,
}: {
  items: AdminReleaseCard[];
  selected: ReadonlySet<string>;
  onSelectedChange: (ids: Set<string>) => void;
}) {
  const [dialog, setDialog] = useState<BulkReviewAction | null>(null);
  const bulk = useBulkReview();
  const count = selected.size;
  const isAllSelected = items.length > 0 && items.every((item) => selected.has(item.id));

  const run = async (action: BulkReviewAction, reason?: string) => {
    try {
      const result = await bulk.mutateAsync({
        ids: [...selected],
        action,
        ...(reason !== undefined ? { reason } : {}),
      });
      report(action, result);
      onSelectedChange(new Set());
      setDialog(null);
    } catch {
      notify.error(
        action === 'approve' ? ADMIN_RELEASE_MESSAGES.approveFailed : ADMIN_RELEASE_MESSAGES.rejectFailed,
      );
    }
  };

  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-lg border border-ink-700 px-4 py-3"
      role="toolbar"
      aria-label="Bulk review"
    >
      <label className="flex items-center gap-2 text-sm text-zinc-300">
        <input
          type="checkbox"
          className="size-4 accent-brand-500"
          checked={isAllSelected}
          onChange={(event) =>
            onSelectedChange(event.target.checked ? new Set(items.map((item) => item.id)) : new Set())
          }
        />
        Select all on this page
      </label>
      <span className="text-sm text-zinc-400" aria-live="polite">
        {count > 0 ? `${releasesWord(count)} selected` : 'None selected'}
      </span>
      <div className="ml-auto flex flex-wrap gap-2">
        <Button size="sm" onClick={() => setDialog('approve')} disabled={count === 0 || bulk.isPending}>
          <Check aria-hidden className="size-4" /> Approve {count}
        </Button>
        <Button
          size="sm"
          variant="danger"
          onClick={() => setDialog('reject')}
          disabled={count === 0 || bulk.isPending}
        >
          <X aria-hidden className="size-4" /> Reject {count}…
        </Button>
      </div>

      <ConfirmDialog
        open={dialog === 'approve'}
        onOpenChange={(open) => {
          if (!open && !bulk.isPending) setDialog(null);
        }}
        title={`Approve ${releasesWord(count)}`}
        description={`${releasesWord(count)} will be approved. Each gets its UPC and ISRCs (codes the artist supplied are kept) and is delivered to the stores its artist selected; each artist is told by email. A release someone else has decided in the meantime is left as it is and listed.`}
        confirmLabel={bulk.isPending ? 'Approving...' : `Approve ${releasesWord(count)}`}
        isPending={bulk.isPending}
        onConfirm={() => run('approve')}
      />
      <ReasonDialog
        open={dialog === 'reject'}
        onOpenChange={(open) => {
          if (!open && !bulk.isPending) setDialog(null);
        }}
        title={`Reject ${releasesWord(count)}`}
        description={`Tell the artists why these ${releasesWord(count)} cannot be distributed. Each artist will see this reason.`}
        label="Rejection reason"
        confirmLabel={`Reject ${releasesWord(count)}`}
        requiredTitle={ADMIN_RELEASE_MESSAGES.rejectionReasonRequiredTitle}
        requiredMessage={ADMIN_RELEASE_MESSAGES.rejectionReasonRequired}
        isPending={bulk.isPending}
        onConfirm={(reason) => run('reject', reason)}
      />
    </div>
  );
}

function report(action: BulkReviewAction, result: BulkReviewResult) {
  if (result.done > 0) {
    notify.success(`${releasesWord(result.done)} ${action === 'approve' ? 'approved' : 'rejected'}`);
  }
  const refused = result.results.flatMap((outcome) =>
    outcome.ok ? [] : [`"${outcome.title ?? outcome.id}": ${outcome.message}`],
  );
  if (refused.length > 0) {
    notify.error(refused.join(' '), `${releasesWord(refused.length)} not changed`);
  }
}
