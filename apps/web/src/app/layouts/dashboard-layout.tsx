/** Dashboard chrome (spec 01 §2): sidebar, plan and price, upgrade button, sign out, mobile menu; the gate. */
import { GATE_MESSAGE } from '@tunedrop/shared';
import { roleAllows } from '@tunedrop/shared/schemas/team-roles';
import {
  Banknote,
  BarChart3,
  Home,
  LifeBuoy,
  LogOut,
  Menu,
  Music2,
  Shield,
  Upload,
  User,
  Users,
  Wallet,
  X,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { buttonClass } from '../../components/ui/button';
import { PageLoader } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { paths } from '../../config/paths';
import { useLiveUpdates } from '../../features/live-updates';
import { AccountSwitcher } from '../../features/team';
import { currentSiteBrand } from '../../lib/site-brand';
import { isReturningFromPayment } from '../../lib/subscription-activation';
import { useViewer, viewerFacts } from '../../lib/viewer';
import { preloadPath } from '../route-loaders';
import { ArtistProfileSwitcher } from './artist-profile-switcher';
import { isReachableWithoutSubscription, LapsedBanner } from './lapsed-banner';
import { SidebarPlanCard, showsAnalyticsLink } from './sidebar-plan-card';
import { useSignOut } from './use-sign-out';

export function DashboardLayout() {
  const { data: viewer, isPending, isError, refetch } = useViewer();
  const location = useLocation();
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const signOut = useSignOut();
  useLiveUpdates(viewer?.user.id);

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes
  useEffect(() => setIsMenuOpen(false), [location.pathname]);

  if (isPending) return <PageLoader />;
  // A failed read is not a sign-out: say so and offer a retry instead of sending the user to /login.
  if (isError && !viewer) return <ViewerLoadError onRetry={() => void refetch()} />;
  if (!viewer) return <Navigate to={paths.login} replace />;
  const facts = viewerFacts(viewer);
  // /dashboard?success=true may arrive before the provider's webhook: the home page activates and reloads.
  const isActivating = isReturningFromPayment(location.pathname, location.search);
  // Money and the catalogue stay open after a lapse (decision 120); everything else keeps the spec's gate.
  const isOpenAfterLapse = isReachableWithoutSubscription(location.pathname);
  if (!facts.passesGate && location.pathname !== paths.account && !isActivating && !isOpenAfterLapse) {
    // A payee (record 175) was never asked to subscribe: they land on their balance, with no message.
    if (facts.isPayee) return <Navigate to={paths.royalties} replace />;
    // A team member (record 230) is never put to a plan: the owner's lapse leaves them the open pages.
    if (facts.isTeamMember) return <Navigate to={paths.songs} replace />;
    return <Navigate to={paths.account} replace state={{ message: GATE_MESSAGE }} />;
  }

  // A payee's pages are the ones open without a subscription; Home and Upload would only send them back.
  const isPayeeView = facts.isPayee && !facts.passesGate;
  const { productName } = currentSiteBrand();
  const items = [
    ...(isPayeeView
      ? []
      : [
          { to: paths.dashboard, label: 'Home', icon: Home, end: true },
          // Uploading is Catalog's (record 205): other roles do not see the entry.
          ...(roleAllows(viewer.account.role, 'catalog')
            ? [{ to: paths.upload, label: 'Upload Music', icon: Upload }]
            : []),
        ]),
    { to: paths.songs, label: 'My Songs', icon: Music2 },
    { to: paths.royalties, label: 'Royalties', icon: Wallet },
    { to: paths.payouts, label: 'Payouts', icon: Banknote },
    ...(showsAnalyticsLink(viewer) ? [{ to: paths.analytics, label: 'Analytics', icon: BarChart3 }] : []),
    { to: paths.team, label: 'Team', icon: Users },
    { to: paths.account, label: 'Account', icon: User },
    { to: paths.help, label: 'Help', icon: LifeBuoy },
    ...(facts.isStaff
      ? [{ to: paths.adminReleases, label: facts.isAdmin ? 'Admin' : 'Moderator', icon: Shield }]
      : []),
  ];

  const sidebar = (where: 'desktop' | 'mobile') => (
    <div className="flex h-full flex-col gap-6 p-4">
      <Link to={paths.dashboard} className="flex items-center gap-2 px-2 text-lg font-bold text-white">
        <BrandMark />
      </Link>
      {isPayeeView ? null : <ArtistProfileSwitcher idSuffix={where} />}
      <AccountSwitcher idSuffix={where} />
      <nav aria-label="Dashboard" className="flex flex-col gap-1">
        {items.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end ?? false}
            onPointerEnter={() => preloadPath(item.to)}
            onFocus={() => preloadPath(item.to)}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
                isActive
                  ? 'bg-brand-600/20 text-brand-300'
                  : 'text-zinc-300 hover:bg-ink-800 hover:text-white',
              )
            }
          >
            <item.icon aria-hidden className="size-4" /> {item.label}
          </NavLink>
        ))}
      </nav>
      <SidebarPlanCard viewer={viewer} />
      <button type="button" onClick={signOut} className={cn(buttonClass('ghost', 'md'), 'justify-start')}>
        <LogOut aria-hidden className="size-4" /> Sign Out
      </button>
    </div>
  );

  return (
    <div className="min-h-screen md:flex">
      <aside className="hidden w-64 shrink-0 border-r border-ink-800 bg-ink-900 md:block">
        {sidebar('desktop')}
      </aside>
      <div className="flex items-center justify-between border-b border-ink-800 bg-ink-900 px-4 py-3 md:hidden">
        <Link to={paths.dashboard} className="font-bold text-white">
          {productName}
        </Link>
        <button
          type="button"
          aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={isMenuOpen}
          aria-controls="dashboard-mobile-menu"
          className="rounded-md p-2 text-zinc-200"
          onClick={() => setIsMenuOpen((open) => !open)}
        >
          {isMenuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
        </button>
      </div>
      {isMenuOpen ? (
        <div id="dashboard-mobile-menu" className="border-b border-ink-800 bg-ink-900 md:hidden">
          {sidebar('mobile')}
        </div>
      ) : null}
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-8 sm:py-10">
        <div className="mx-auto max-w-6xl">
          {!facts.passesGate && isOpenAfterLapse ? (
            <LapsedBanner
              isPayee={facts.isPayee}
              hasNeverSubscribed={
                viewer.profile.subscriptionStatus === 'inactive' && viewer.profile.subscriptionEnd === null
              }
            />
          ) : null}
          <Outlet />
        </div>
      </main>
    </div>
  );
}

function ViewerLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <p className="text-lg font-semibold text-white">We could not load your account.</p>
      <p className="text-sm text-zinc-400">Check your connection and try again.</p>
      <button type="button" onClick={onRetry} className={buttonClass('primary', 'md')}>
        Try again
      </button>
    </div>
  );
}
