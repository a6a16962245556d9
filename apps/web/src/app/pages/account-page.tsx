/** /dashboard/account: composed from the billing and accounts features (spec 01 §2). Always reachable. */

import { ROLE_LABELS } from '@tunedrop/shared/schemas/team-roles';
import { Link, useLocation } from 'react-router';
import { Card } from '../../components/ui/card';
import { paths } from '../../config/paths';
import { AccountSections } from '../../features/auth';
import { CurrentPlanSection } from '../../features/billing';
import { StaffNotificationsCard } from '../../features/staff-notifications';
import { usePageTitle } from '../../lib/use-page-title';
import { useViewer, viewerFacts } from '../../lib/viewer';

export default function AccountPage() {
  usePageTitle('Account');
  const location = useLocation();
  const message = (location.state as { message?: string } | null)?.message;
  const { data: viewer } = useViewer();
  // A team member (record 230) acts for the owner's account: its plan and billing are the owner's.
  const isTeamMember = viewer ? viewerFacts(viewer).isTeamMember : false;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-white">Account</h1>
      {message && !isTeamMember ? (
        <div
          role="status"
          className="rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-amber-200"
        >
          <p>{message}</p>
          <p>Choose a plan below to get started.</p>
        </div>
      ) : null}
      {isTeamMember && viewer ? (
        <Card className="space-y-1" data-testid="team-account-card">
          <h2 className="text-lg font-semibold text-white">Team account</h2>
          <p className="text-sm text-zinc-300">
            You act for {viewer.profile.artistName} as {ROLE_LABELS[viewer.account.role]}. Its plan and
            billing are the owner’s; joining a team needs no plan of your own.
          </p>
        </Card>
      ) : (
        <CurrentPlanSection />
      )}
      {viewer && (viewer.account.role === 'owner' || viewer.account.role === 'admin') ? (
        <Card className="space-y-1" data-testid="api-keys-card">
          <h2 className="text-lg font-semibold text-white">API keys</h2>
          <p className="text-sm text-zinc-300">
            Let your other systems use the Tunedrop API and receive its events.{' '}
            <Link className="text-brand-300 underline" to={paths.apiKeys}>
              Manage API keys
            </Link>{' '}
            ·{' '}
            <Link className="text-brand-300 underline" to={paths.webhooks}>
              Manage webhooks
            </Link>
          </p>
        </Card>
      ) : null}
      <AccountSections />
      <StaffNotificationsCard />
    </div>
  );
}
