/** /dashboard/account: composed from the billing and accounts features (spec 01 §2). Always reachable. */
import { useLocation } from 'react-router';
import { AccountSections } from '../../features/auth';
import { CurrentPlanSection } from '../../features/billing';
import { StaffNotificationsCard } from '../../features/staff-notifications';
import { usePageTitle } from '../../lib/use-page-title';

export default function AccountPage() {
  usePageTitle('Account');
  const location = useLocation();
  const message = (location.state as { message?: string } | null)?.message;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-white">Account</h1>
      {message ? (
        <div
          role="status"
          className="rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-amber-200"
        >
          <p>{message}</p>
          <p>Choose a plan below to get started.</p>
        </div>
      ) : null}
      <CurrentPlanSection />
      <AccountSections />
      <StaffNotificationsCard />
    </div>
  );
}
