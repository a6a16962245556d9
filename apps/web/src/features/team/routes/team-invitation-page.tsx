/**
 * /team/invitations/:token (issue 27, record 202): which account and role the invitation offers, then
 * Accept. Like split invitations (record 147), only the invited address's own verified account may accept;
 * signed out, the page offers sign-in or a free sign-up and the way back here.
 */
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@tunedrop/shared/schemas/team';
import { CheckCircle2, Users } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer } from '../../../lib/viewer';
import { useAcceptTeamInvitation, useTeamInvitation } from '../api/team';

export default function TeamInvitationPage() {
  usePageTitle('Team invitation');
  const { token = '' } = useParams();
  const invitation = useTeamInvitation(token);
  const { data: viewer, isPending: isViewerPending } = useViewer();
  const accept = useAcceptTeamInvitation(token);

  if (invitation.isPending || isViewerPending) return <PageLoader />;
  return (
    <div className="flex min-h-screen items-center justify-center bg-ink-950 px-4 py-12">
      <Card className="w-full max-w-lg space-y-5">
        <div className="flex items-center gap-3">
          <Users aria-hidden className="size-8 text-brand-400" />
          <h1 className="text-2xl font-bold text-white">Team invitation</h1>
        </div>
        {invitation.isError ? (
          <p role="alert" className="text-zinc-300">
            {invitation.error.message}
          </p>
        ) : (
          <>
            <p className="text-zinc-200">
              You are invited to join{' '}
              <span className="font-semibold text-white">{invitation.data.accountName}</span> as{' '}
              <span className="font-semibold text-white">{ROLE_LABELS[invitation.data.role]}</span>:{' '}
              {ROLE_DESCRIPTIONS[invitation.data.role]}
            </p>
            {invitation.data.status === 'accepted' || accept.isSuccess ? (
              <div role="status" className="space-y-3">
                <p className="flex items-center gap-2 text-emerald-300">
                  <CheckCircle2 aria-hidden className="size-5" /> You joined the team.
                </p>
                <a href={paths.dashboard} className={buttonClass('primary')}>
                  Go to the dashboard
                </a>
              </div>
            ) : invitation.data.status === 'expired' ? (
              <p role="alert" className="text-zinc-300">
                This invitation has expired. Ask the account owner to invite you again.
              </p>
            ) : viewer && invitation.data.acceptance.status !== 'ready' ? (
              <p role="alert" className="text-amber-200">
                {invitation.data.acceptance.message}
              </p>
            ) : viewer ? (
              <div className="space-y-2">
                <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
                  {accept.isPending ? 'Joining...' : `Join as ${viewer.user.email}`}
                </Button>
                {accept.isError ? (
                  <p role="alert" className="text-sm text-red-400">
                    {accept.error.message}
                  </p>
                ) : null}
              </div>
            ) : (
              <div className="space-y-3">
                <p className="text-sm text-zinc-300">
                  Sign in with the address this invitation was sent to ({invitation.data.email}), or create a
                  free account with it (no plan is needed to join a team), then open this link from your email
                  again.
                </p>
                <div className="flex flex-wrap gap-3">
                  <Link to={paths.login} className={buttonClass('primary')}>
                    Sign in
                  </Link>
                  <Link to={paths.signup} className={buttonClass('outline')}>
                    Create a free account
                  </Link>
                </div>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
