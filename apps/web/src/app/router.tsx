/**
 * Routes of the whole app. Every page is a lazy route, so public pages never load dashboard or admin code.
 * main.tsx creates the browser router from them (after loading a prerendered page's route, record 128);
 * entry-server.tsx renders the public pages from them at build time. The signed-in pages' loaders start their
 * reads beside the lazy chunks (route-loaders.ts, record 210).
 */
import { Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout';
import { RouteError } from './route-error';
import { loaders } from './route-loaders';

type PageModule = { default: React.ComponentType };
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, ...page(() => import('../features/site/routes/home-page')) },
          { path: 'pricing', ...page(() => import('../features/site/routes/pricing-page')) },
          { path: 'terms', ...page(() => import('../features/site/routes/terms-page')) },
          { path: 'privacy', ...page(() => import('../features/site/routes/privacy-page')) },
        ],
      },
      { path: 'signup', ...page(() => import('../features/auth/routes/signup-page')) },
      { path: 'login', ...page(() => import('../features/auth/routes/login-page')) },
      { path: 'forgot-password', ...page(() => import('../features/auth/routes/forgot-password-page')) },
      { path: 'reset-password', ...page(() => import('../features/auth/routes/reset-password-page')) },
      { path: 'checkout', ...page(() => import('../features/billing/routes/checkout-page')) },
      {
        path: 'sandbox/checkout/:id',
        ...page(() => import('../features/billing/routes/sandbox-checkout-page')),
      },
      { path: 'sandbox/portal', ...page(() => import('../features/billing/routes/sandbox-portal-page')) },
      {
        path: 'team/invitations/:token',
        ...page(() => import('../features/team/routes/team-invitation-page')),
      },
      {
        path: 'splits/invitations/:token',
        ...page(() => import('../features/splits/routes/invitation-page')),
      },
      {
        path: 'dashboard',
        ...loaders.dashboardLayout,
        lazy: async () => ({ Component: (await import('./layouts/dashboard-layout')).DashboardLayout }),
        children: [
          {
            index: true,
            ...loaders.dashboardHome,
            ...page(() => import('../features/dashboard/routes/dashboard-home-page')),
          },
          { path: 'account', ...page(() => import('./pages/account-page')) },
          { path: 'api-keys', ...page(() => import('../features/api-keys/routes/api-keys-page')) },
          { path: 'webhooks', ...page(() => import('../features/webhooks/routes/webhooks-page')) },
          { path: 'upload', ...page(() => import('../features/builder/routes/upload-page')) },
          {
            path: 'release-builder',
            ...page(() => import('../features/builder/routes/release-builder-page')),
          },
          {
            path: 'songs',
            ...loaders.songs,
            ...page(() => import('../features/releases/routes/songs-page')),
          },
          {
            path: 'artists',
            ...page(() => import('../features/artist-profiles/routes/artist-profiles-page')),
          },
          {
            path: 'edit-release/:id',
            ...page(() => import('../features/releases/routes/edit-release-page')),
          },
          {
            path: 'releases/:id',
            ...page(() => import('./pages/release-detail-page')),
          },
          { path: 'royalties', ...page(() => import('./pages/royalties-page')) },
          { path: 'payouts', ...page(() => import('./pages/payouts-page')) },
          { path: 'analytics', ...page(() => import('../features/analytics/routes/analytics-page')) },
          {
            path: 'content-id',
            ...page(() => import('../features/content-id/routes/claims-page')),
          },
          { path: 'help', ...page(() => import('../features/support/routes/help-page')) },
          { path: 'team', ...page(() => import('../features/team/routes/team-page')) },
          { path: 'help/:id', ...page(() => import('../features/support/routes/help-thread-page')) },
        ],
      },
      {
        path: 'admin',
        ...loaders.adminLayout,
        lazy: async () => ({ Component: (await import('./layouts/admin-layout')).AdminLayout }),
        children: [
          { index: true, element: <Navigate to="/admin/releases" replace /> },
          {
            path: 'releases',
            ...loaders.adminReleases,
            ...page(() => import('./pages/admin-releases-page')),
          },
          { path: 'releases/:id/splits', ...page(() => import('./pages/admin-release-splits-page')) },
          { path: 'audit', ...page(() => import('../features/audit/routes/admin-audit-page')) },
          { path: 'users', ...page(() => import('../features/admin-users/routes/admin-users-page')) },
          {
            path: 'withdrawals',
            ...page(() => import('../features/admin-withdrawals/routes/admin-withdrawals-page')),
          },
          { path: 'payouts', ...page(() => import('../features/payouts/routes/admin-payouts-page')) },
          {
            path: 'payouts/:id',
            ...page(() => import('../features/payouts/routes/admin-payout-run-page')),
          },
          {
            path: 'bulk-balance',
            ...page(() => import('../features/admin-balances/routes/bulk-balance-page')),
          },
          { path: 'messages', ...page(() => import('./pages/admin-messages-page')) },
          {
            path: 'content-id',
            ...page(() => import('../features/content-id/routes/admin-content-id-page')),
          },
          { path: 'delivery', ...page(() => import('../features/delivery/routes/admin-delivery-page')) },
          { path: 'settings', ...page(() => import('./pages/admin-settings-page')) },
          { path: 'finance', ...page(() => import('../features/finance/routes/admin-finance-page')) },
          { path: 'contracts', ...page(() => import('../features/contracts/routes/admin-contracts-page')) },
          {
            path: 'catalogue-import',
            ...page(() => import('../features/catalogue-import/routes/admin-catalogue-import-page')),
          },
          {
            path: 'royalties',
            ...page(() => import('../features/royalty-imports/routes/admin-royalties-page')),
          },
          {
            path: 'royalties/:id',
            ...page(() => import('../features/royalty-imports/routes/admin-royalty-import-page')),
          },
        ],
      },
    ],
  },
];
