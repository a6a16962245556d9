/**
 * An import or posting whose run stopped (record 220): when it is retried (or that none is scheduled),
 * and the admin's retry after a confirmation. The job resumes from the phase it reached.
 */
import { type ImportListItem, type ImportRetry, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useRetryImport } from '../api/royalty-imports';

function retryText(retry: ImportRetry): string {
  const at = retry.at ? formatDateTime(retry.at) : null;
  if (retry.state === 'scheduled') return `The run stopped; it is retried ${at ? `at ${at}` : 'shortly'}.`;
  if (retry.state === 'stalled')
    return `No progress for a while; if its worker stopped, the run is taken over${at ? ` by ${at}` : ''}.`;
  return 'The run stopped and no retry is scheduled.';
}

export function ImportRetryNotice({ item }: { item: Pick<ImportListItem, 'id' | 'fileName' | 'retry'> }) {
  const retry = useRetryImport();
  const [isConfirming, setConfirming] = useState(false);
  if (!item.retry) return null;
  return (
    <div data-testid="import-retry" className="flex flex-wrap items-center gap-2">
      <p className="text-sm text-amber-300">{retryText(item.retry)}</p>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Retry now: ${item.fileName}`}
        onClick={() => setConfirming(true)}
      >
        Retry now
      </Button>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setConfirming}
        title="Retry this import now?"
        description="The import goes on from the step it reached; lines already read are not read twice."
        confirmLabel="Retry now"
        isPending={retry.isPending}
        onConfirm={() =>
          retry.mutate(item.id, {
            onSuccess: () => {
              notify.success(ROYALTY_TEXTS.retryQueued);
              setConfirming(false);
            },
            onError: (error) => {
              notify.error(errorMessage(error, 'The import could not be retried.'));
              setConfirming(false);
            },
          })
        }
      />
    </div>
  );
}
