/**
 * /splits/invitations/:token (issue 17): what the collaborator accepts (release, owner, each share, the
 * release's expenses repaid first and any money held for them), then Accept. Accepting needs an account,
 * not a subscription: signed out, the page offers a free sign-up or sign-in and the way back here. Only the
 * invited address's own verified account may accept (record 147): any other is told which address (masked)
 * must sign in, and gets no Accept button.
 */
import { CheckCircle2, Handshake } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { InvitationAcceptButton, InvitationCard } from '../../../components/invitation-card';
import { buttonClass } from '../../../components/ui/button';
import { PageLoader } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { formatCents, formatDate } from '../../../lib/format';
import { currentSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { useAcceptInvitation, useInvitation } from '../api/splits';

export default function InvitationPage() {
  usePageTitle('Royalty split invitation');
  const { token = '' } = useParams();
  const invitation = useInvitation(token);
  const { data: viewer, isPending: isViewerPending } = useViewer();
  const accept = useAcceptInvitation(token);

  if (invitation.isPending || isViewerPending) return <PageLoader />;
  return (
    <InvitationCard icon={Handshake} title="Royalty split invitation" error={invitation.error}>
      {invitation.isError ? null : (
        <>
          <p className="text-zinc-200">
            <span className="font-semibold text-white">{invitation.data.ownerName}</span> invites{' '}
            <span className="font-semibold text-white">{invitation.data.email}</span> to share the royalties
            of <span className="font-semibold text-white">“{invitation.data.releaseTitle}”</span>.
          </p>
          <div>
            <h2 className="text-sm font-medium text-zinc-400">By accepting you receive</h2>
            <ul className="mt-2 space-y-1" data-testid="invitation-shares">
              {invitation.data.shares.map((share) => (
                <li key={share.trackTitle ?? 'default'} className="flex justify-between gap-3 text-zinc-100">
                  <span>
                    {share.trackTitle ? `Track “${share.trackTitle}”` : 'Every track of the release'}
                  </span>
                  <span className="tabular-nums">{share.percent}% of its earnings</span>
                </li>
              ))}
            </ul>
            <p className="mt-2 text-sm text-zinc-400">
              Shares apply to store reports posted after the split was set, after any of the owner's expenses
              for this release are repaid. They are paid into your {currentSiteBrand().productName} balance;
              no subscription is needed.
            </p>
            {invitation.data.expenses.length > 0 ? (
              <div className="mt-3" data-testid="invitation-expenses">
                <h2 className="text-sm font-medium text-zinc-400">
                  Expenses repaid to the owner first ({formatCents(invitation.data.remainingExpenseCents)}{' '}
                  still to repay)
                </h2>
                <ul className="mt-1 space-y-1 text-sm">
                  {invitation.data.expenses.map((expense) => (
                    <li key={expense.id} className="flex justify-between gap-3 text-zinc-200">
                      <span>
                        {formatDate(expense.spentOn)} · {expense.description}
                      </span>
                      <span className="tabular-nums">{formatCents(expense.amountCents)}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {invitation.data.heldCents > 0 ? (
              <p className="mt-2 text-sm text-amber-200" data-testid="invitation-held">
                {formatCents(invitation.data.heldCents)} is held for you and is paid when you accept.
              </p>
            ) : null}
          </div>
          {invitation.data.status === 'accepted' || accept.isSuccess ? (
            <div role="status" className="space-y-3">
              <p className="flex items-center gap-2 text-emerald-300">
                <CheckCircle2 aria-hidden className="size-5" /> Invitation accepted.
              </p>
              <Link to={paths.royalties} className={buttonClass('primary')}>
                See your royalties
              </Link>
            </div>
          ) : invitation.data.status === 'withdrawn' ? (
            <p role="alert" className="text-zinc-300">
              The release owner withdrew this invitation.
            </p>
          ) : viewer && invitation.data.acceptance.status !== 'ready' ? (
            <p role="alert" className="text-amber-200" data-testid="invitation-not-yours">
              {invitation.data.acceptance.message}
            </p>
          ) : viewer ? (
            <InvitationAcceptButton
              label={`Accept as ${viewer.user.email}`}
              pendingLabel="Accepting..."
              onAccept={() => accept.mutate()}
              isPending={accept.isPending}
              error={accept.error}
            />
          ) : (
            <div className="space-y-3">
              <p className="text-sm text-zinc-300">
                Accepting needs a free {currentSiteBrand().productName} account (no subscription) with the
                email address this invitation was sent to ({invitation.data.email}). Create one and confirm
                your email: the confirmation brings you back here. Already have an account? Sign in, then open
                this link from your email again.
              </p>
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`${paths.signup}?invitation=${encodeURIComponent(token)}`}
                  className={buttonClass('primary')}
                >
                  Create a free account
                </Link>
                <Link to={paths.login} className={buttonClass('outline')}>
                  Sign in
                </Link>
              </div>
            </div>
          )}
        </>
      )}
    </InvitationCard>
  );
}
