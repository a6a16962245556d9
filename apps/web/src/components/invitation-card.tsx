/**
 * The page an invitation link opens (split invitations, record 147; team invitations, record 326): a card
 * with the invitation's icon and title, the reason when the link cannot be read, else what it offers; and
 * the signed-in invitee's accept button with the server's refusal under it.
 */
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './ui/button';
import { Card } from './ui/card';

export function InvitationCard({
  icon: Icon,
  title,
  error,
  children,
}: {
  icon: LucideIcon;
  title: string;
  /** The invitation could not be loaded (unknown or expired link): its message replaces the body. */
  error: Error | null;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-ink-950 px-4 py-12">
      <Card className="w-full max-w-lg space-y-5">
        <div className="flex items-center gap-3">
          <Icon aria-hidden className="size-8 text-brand-400" />
          <h1 className="text-2xl font-bold text-white">{title}</h1>
        </div>
        {error ? (
          <p role="alert" className="text-zinc-300">
            {error.message}
          </p>
        ) : (
          children
        )}
      </Card>
    </div>
  );
}

export function InvitationAcceptButton({
  label,
  pendingLabel,
  onAccept,
  isPending,
  error,
}: {
  label: string;
  pendingLabel: string;
  onAccept: () => void;
  isPending: boolean;
  error: Error | null;
}) {
  return (
    <div className="space-y-2">
      <Button onClick={onAccept} disabled={isPending}>
        {isPending ? pendingLabel : label}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-400">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
