/**
 * Discarding the saved release draft (issue 18): a button that asks first, then deletes the draft on the
 * server (DELETE /api/builder/draft). Used in the builder's header and on the Upload Music page.
 */
import type { BuilderDraft } from '@tunedrop/shared/schemas/builder';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { deleteDraft } from '../api/draft';

/** A draft worth mentioning: the user typed or uploaded something, or moved past the first step. */
export function hasDraftContent(draft: BuilderDraft | null | undefined): draft is BuilderDraft {
  if (!draft) return false;
  return (
    draft.step > 1 ||
    draft.release.title.trim() !== '' ||
    Boolean(draft.release.coverArt) ||
    draft.tracks.some((track) => track.title.trim() !== '' || Boolean(track.file))
  );
}

export function draftTitle(draft: BuilderDraft): string {
  return draft.release.title.trim() || 'Untitled release';
}

export function DiscardDraftButton({ title, onDiscarded }: { title: string; onDiscarded: () => void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [isPending, setIsPending] = useState(false);
  const discard = async () => {
    setIsPending(true);
    try {
      await deleteDraft();
      setIsOpen(false);
      notify.success('Draft discarded', `"${title}" was deleted. You can start a new release.`);
      onDiscarded();
    } catch (error) {
      notify.error(errorMessage(error, 'Failed to discard the draft. Please try again.'));
    } finally {
      setIsPending(false);
    }
  };
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setIsOpen(true)}>
        <Trash2 aria-hidden className="size-4" /> Discard draft
      </Button>
      <ConfirmDialog
        open={isOpen}
        onOpenChange={setIsOpen}
        title="Discard this draft?"
        description={`"${title}" and everything entered in it, including its uploaded files, will be deleted. This cannot be undone.`}
        confirmLabel="Discard draft"
        cancelLabel="Keep draft"
        isDestructive
        isPending={isPending}
        onConfirm={() => void discard()}
      />
    </>
  );
}
