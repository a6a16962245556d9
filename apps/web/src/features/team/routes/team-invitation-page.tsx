/**
 * /team/invitations/:token (issue 27, record 202): which account and role the invitation offers, then
 * Accept. Like split invitations (record 147), only the invited address's own verified account may accept;
 * signed out, the page offers sign-in or a free sign-up and the way back here.
 */
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@tunedrop/shared/schemas/team';
import { CheckCircle2, Users } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { InvitationAcceptButton, InvitationCard } from '../../../components/invitation-card';
import { buttonClass } from '../../../components/ui/button';
import { PageLoader } from '../../../components/ui/card';
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
  // Joined: straight into the account (record 230), a full load so every page reads it afresh.
  useEffect(() => {
    if (accept.isSuccess) window.location.assign(paths.dashboard);
  }, [accept.isSuccess]);
  const back = `/team/invitations/${token}`;

  if (invitation.isPending || isViewerPending) return <PageLoader />;
  return (
    <InvitationCard icon={Users} title="Team invitation" error={invitation.error}>
      {invitation.isError ? null : (
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
            <InvitationAcceptButton
              label={`Join as ${viewer.user.email}`}
              pendingLabel="Joining..."
              onAccept={() => accept.mutate()}
              isPending={accept.isPending}
              error={accept.error}
            />
          ) : (
            <div className="space-y-3">
              <p className="text-sm text-zinc-300">
                Sign in with the address this invitation was sent to ({invitation.data.email}), or create an
                account with it: joining a team is free and needs no plan. You come straight back here.
              </p>
              <div className="flex flex-wrap gap-3">
                <Link
                  to={`${paths.login}?${new URLSearchParams({ next: back })}`}
                  className={buttonClass('primary')}
                >
                  Sign in
                </Link>
                <Link
                  to={`${paths.signup}?${new URLSearchParams({ team: token })}`}
                  className={buttonClass('outline')}
                >
                  Create your account to join
                </Link>
              </div>
            </div>
          )}
        </>
      )}
    </InvitationCard>
  );
}
