/**
 * The release page's panel for a rejected release (issue 18): the reason, then fix (the edit page),
 * resubmit (rejected → pending, confirmed) or delete (confirmed, spec's delete text).
 */
import type { ReleaseDetail } from '@tunedrop/shared/schemas/delivery';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { useAccountCan, useViewer, viewerFacts } from '../../../lib/viewer';
import { useDeleteRelease } from '../api/delete-release';
import { useResubmitRelease } from '../api/resubmit-release';

export function RejectedActions({ release }: { release: ReleaseDetail }) {
  const navigate = useNavigate();
  const { data: viewer } = useViewer();
  // Resubmitting and deleting are Catalog's (record 205).
  const isCatalog = useAccountCan()('catalog');
  const canChange = viewer ? viewerFacts(viewer).passesGate && isCatalog : false;
  const [confirming, setConfirming] = useState<'resubmit' | 'delete' | null>(null);
  const resubmit = useResubmitRelease(release.id);
  const remove = useDeleteRelease(release.id);
  const messageOf = (error: unknown, fallback: string) =>
    error instanceof ApiError ? error.message : fallback;

  return (
    <section
      aria-labelledby="rejected-title"
      data-testid="rejected-panel"
      className="space-y-3 rounded-xl border border-red-500/30 bg-red-500/10 p-4"
    >
      <h2 id="rejected-title" className="text-lg font-semibold text-red-100">
        This release was rejected
      </h2>
      <p className="text-sm text-red-100">
        <span className="font-medium">Rejection reason:</span>{' '}
        {release.rejectionReason ?? 'No reason was given.'}
      </p>
      {canChange ? (
        <>
          <p className="text-sm text-zinc-200">
            Fix what the reason says (details, tracks, credits or files), then resubmit it for review.
          </p>
          <div className="flex flex-wrap gap-2">
            <Link to={paths.editRelease(release.id)} className={buttonClass('outline', 'sm')}>
              <Pencil aria-hidden className="size-4" /> Fix release
            </Link>
            <Button size="sm" onClick={() => setConfirming('resubmit')}>
              <RotateCcw aria-hidden className="size-4" /> Resubmit for review
            </Button>
            <Button variant="danger" size="sm" onClick={() => setConfirming('delete')}>
              <Trash2 aria-hidden className="size-4" /> Delete release
            </Button>
          </div>
        </>
      ) : null}
      <ConfirmDialog
        open={confirming === 'resubmit'}
        onOpenChange={(open) => setConfirming(open ? 'resubmit' : null)}
        title="Resubmit for review?"
        description={RELEASE_MESSAGES.resubmitConfirm}
        confirmLabel="Resubmit"
        isPending={resubmit.isPending}
        onConfirm={() =>
          resubmit.mutate(undefined, {
            onSuccess: () => {
              setConfirming(null);
              notify.success(RELEASE_MESSAGES.resubmitted);
            },
            onError: (error) => {
              setConfirming(null);
              notify.error(messageOf(error, RELEASE_MESSAGES.resubmitFailed));
            },
          })
        }
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => setConfirming(open ? 'delete' : null)}
        title="Delete release?"
        description={RELEASE_MESSAGES.deleteConfirm}
        confirmLabel="Delete"
        isDestructive
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              notify.success(RELEASE_MESSAGES.deleted);
              navigate(paths.songs);
            },
            onError: (error) => {
              setConfirming(null);
              notify.error(messageOf(error, RELEASE_MESSAGES.deleteFailed));
            },
          })
        }
      />
    </section>
  );
}
