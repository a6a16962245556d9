/**
 * Admin chrome (spec 02 §2, §6): role badge, Back to Dashboard, Sign Out; staff only. Staff need no
 * subscription here (issue 13, decision 086): the role is checked, never the payment.
 */
import { ArrowLeft, LogOut, Shield } from 'lucide-react';
import { useEffect } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { PageLoader } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { notify } from '../../components/ui/toast';
import { paths } from '../../config/paths';
import { BrandWarnings } from '../../features/brand';
import { useViewer, viewerFacts } from '../../lib/viewer';
import { preloadPath } from '../route-loaders';
import { useSignOut } from './use-sign-out';

const ADMIN_ONLY = [
  paths.adminUsers,
  paths.adminWithdrawals,
  paths.adminPayouts,
  paths.adminBulkBalance,
  paths.adminMessages,
  paths.adminAudit,
  paths.adminContentId,
  paths.adminDelivery,
  paths.adminSettings,
  paths.adminRoyalties,
  paths.adminFinance,
  paths.adminContracts,
  paths.adminCatalogueImport,
];

export function AdminLayout() {
  const { data: viewer, isPending, isError } = useViewer();
  const location = useLocation();
  const signOut = useSignOut();
  const facts = viewer ? viewerFacts(viewer) : null;
  const isDenied = Boolean(viewer && facts && !facts.isStaff);

  useEffect(() => {
    if (isDenied) notify.error("You don't have admin or moderator privileges.", 'Access denied');
  }, [isDenied]);

  if (isPending) return <PageLoader />;
  if (isError || !viewer || !facts) return <Navigate to={paths.login} replace />;
  // Spec 02 §6: a non-staff user is told 'Access denied' and sent to /dashboard (whose gate applies next).
  if (isDenied) return <Navigate to={paths.dashboard} replace />;

  const isAdminOnlyPage = ADMIN_ONLY.some((path) => location.pathname.startsWith(path));
  const tabs = [
    { to: paths.adminReleases, label: 'Releases' },
    ...(facts.isAdmin
      ? [
          { to: paths.adminUsers, label: 'Users' },
          { to: paths.adminWithdrawals, label: 'Withdrawals' },
          { to: paths.adminPayouts, label: 'Payouts' },
          { to: paths.adminBulkBalance, label: 'Bulk Balance' },
          { to: paths.adminRoyalties, label: 'Royalties' },
          { to: paths.adminFinance, label: 'Finance' },
          { to: paths.adminContracts, label: 'Contracts' },
          { to: paths.adminMessages, label: 'Messages' },
          { to: paths.adminAudit, label: 'Audit Log' },
          { to: paths.adminContentId, label: 'Content ID' },
          { to: paths.adminDelivery, label: 'Delivery' },
          { to: paths.adminCatalogueImport, label: 'Catalogue import' },
          { to: paths.adminSettings, label: 'Settings' },
        ]
      : []),
  ];

  return (
    <div className="min-h-screen">
      <header className="border-b border-ink-800 bg-ink-900">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <div className="flex items-center gap-3">
            <Shield aria-hidden className="size-6 text-brand-400" />
            <div>
              <p className="font-semibold text-white" data-testid="admin-role">
                {facts.isAdmin ? 'Administrator' : 'Moderator'}
              </p>
              <p className="text-xs text-zinc-400">
                {facts.isAdmin ? 'Full system access' : 'Release management access'}
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <Link to={paths.dashboard} className={buttonClass('outline', 'sm')}>
              <ArrowLeft aria-hidden className="size-4" /> Back to Dashboard
            </Link>
            <button type="button" onClick={signOut} className={buttonClass('ghost', 'sm')}>
              <LogOut aria-hidden className="size-4" /> Sign Out
            </button>
          </div>
        </div>
        <nav aria-label="Admin" className="mx-auto flex max-w-7xl gap-1 overflow-x-auto px-4 sm:px-6">
          {tabs.map((tab) => (
            <NavLink
              key={tab.to}
              to={tab.to}
              onPointerEnter={() => preloadPath(tab.to)}
              onFocus={() => preloadPath(tab.to)}
              className={({ isActive }) =>
                cn(
                  'border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                  isActive
                    ? 'border-brand-400 text-white'
                    : 'border-transparent text-zinc-400 hover:text-white',
                )
              }
            >
              {tab.label}
            </NavLink>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {/* Every admin page opens with the site's unbacked claims (record 328), except Settings, which lists them. */}
        {facts.isAdmin && !location.pathname.startsWith(paths.adminSettings) ? (
          <div className="mb-6">
            <BrandWarnings linksToSettings />
          </div>
        ) : null}
        {isAdminOnlyPage && !facts.isAdmin ? (
          <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/10 p-4 text-red-200">
            You need admin privileges to access this page.
          </p>
        ) : (
          <Outlet />
        )}
      </main>
    </div>
  );
}
