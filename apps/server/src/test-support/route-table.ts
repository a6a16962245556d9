/**
 * Every API route with its exact access rule. `lib/access.test.ts` fails when the app has a route that is
 * not here, or here with another rule; `lib/access-matrix.test.ts` calls each row as every kind of caller.
 *
 * Adding a route: add one `route(method, path, rule, options)` line below, in the group of its module.
 * Options tell the matrix how to call it:
 * - `params`: which fixture fills each `:param` (default: a random UUID, so the route answers 404 after
 *   access passes); the fixtures are in access-matrix.test.ts (`release`, `track`, `withdrawal`, `user`,
 *   `coverSize`, `role`, `supportMessage`).
 * - `owned: true`: the params name the owner artist's resource, so another artist must get 404.
 * - `call`: the concrete path (with query) and/or JSON body to send, when the default (the path with its
 *   params filled, `{}` for POST/PUT/PATCH) is not a useful request.
 */
import { CONTENT_ID_ELIGIBLE_ANSWERS } from '@tunedrop/shared/schemas/content-id';
import type { AccountNeed } from '@tunedrop/shared/schemas/team';
import { type AccessRule, defaultAccountNeed } from '../lib/access';
import { v1Rows } from './route-table-api';

export type MatrixFixture =
  | 'release'
  | 'track'
  | 'withdrawal'
  | 'user'
  | 'coverSize'
  | 'role'
  | 'supportMessage';

export type RouteRow = {
  method: string;
  path: string;
  rule: AccessRule;
  /** What a team member's role must allow on the acting account (record 325); the rule's default when left out. */
  account: AccountNeed;
  params?: Record<string, MatrixFixture>;
  owned?: boolean;
  call?: { path?: string; method?: string; json?: unknown; headers?: Record<string, string> };
};

function route(
  method: string,
  path: string,
  rule: AccessRule,
  options: Omit<RouteRow, 'method' | 'path' | 'rule' | 'account'> & { account?: AccountNeed } = {},
): RouteRow {
  return { method, path, rule, ...options, account: options.account ?? defaultAccountNeed(rule) };
}

const release = { id: 'release' } as const;

const APP_ROUTES: RouteRow[] = [
  // health, config, site
  route('GET', '/api/health', 'public'),
  route('GET', '/api/health/live', 'public'),
  route('GET', '/api/health/ready', 'public'),
  route('GET', '/api/config', 'public'),
  route('POST', '/api/contact', 'public'),

  // auth (ours, then better-auth's catch-all) and the viewer
  route('POST', '/api/auth/signup', 'public'),
  route('POST', '/api/auth/resend-verification', 'public'),
  route('POST', '/api/auth/sign-in/email', 'public'),
  route('GET', '/api/auth/verify-email', 'public', {
    call: { path: '/api/auth/verify-email?token=not-a-token' },
  }),
  route('POST', '/api/auth/reset-password', 'public'),
  route('GET', '/api/auth/*', 'public', { call: { path: '/api/auth/get-session' } }),
  route('POST', '/api/auth/*', 'public', { call: { path: '/api/auth/request-password-reset' } }),
  route('GET', '/api/me', 'user', { account: 'personal' }),
  route('PATCH', '/api/me/profile', 'user'),
  route('GET', '/api/me/stats', 'user', { account: 'read' }),
  route('GET', '/api/events', 'user', { account: 'read' }),

  // team (issue 27, record 202): the accounts a person acts for, the owner's members and invitations
  route('GET', '/api/accounts', 'user', { account: 'personal' }),
  route('PUT', '/api/accounts/current', 'user', {
    account: 'personal',
    call: { json: { accountId: 'nobody' } },
  }),
  route('GET', '/api/team', 'user', { account: 'read' }),
  route('POST', '/api/team/invitations', 'subscriber', {
    account: 'owner',
    call: { json: { email: 'matrix-invitee@example.com', role: 'viewer' } },
  }),
  route('DELETE', '/api/team/invitations/:id', 'user', { account: 'owner' }),
  route('PUT', '/api/team/members/:userId', 'user', { account: 'owner', call: { json: { role: 'viewer' } } }),
  route('DELETE', '/api/team/members/:userId', 'user', {
    account: 'owner',
    call: { path: '/api/team/members/nobody' },
  }),
  route('POST', '/api/team/transfer', 'user', { account: 'owner', call: { json: { userId: 'nobody' } } }),
  // Any member may leave; the body names the account they mean to leave, so the matrix's call leaves none.
  route('POST', '/api/team/leave', 'user', { account: 'read', call: { json: { accountId: 'nobody' } } }),
  route('GET', '/api/team-invitations/:token', 'public', {
    call: { path: '/api/team-invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  }),
  route('POST', '/api/team-invitations/:token/accept', 'user', {
    account: 'personal',
    call: { path: '/api/team-invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/accept' },
  }),

  // billing
  route('POST', '/api/billing/check-subscription', 'user'),
  route('POST', '/api/billing/create-checkout', 'user'),
  route('POST', '/api/billing/customer-portal', 'user'),
  route('GET', '/api/billing/sandbox/checkouts/:id', 'user'),
  route('POST', '/api/billing/sandbox/checkouts/:id/cancel', 'user'),
  route('POST', '/api/billing/sandbox/checkouts/:id/pay', 'user'),
  route('GET', '/api/billing/sandbox/portal', 'user'),
  route('POST', '/api/billing/sandbox/portal', 'user'),
  route('POST', '/api/payments/webhook', 'public'),

  // builder and uploads
  route('GET', '/api/builder/draft', 'subscriber', { account: 'catalog' }),
  route('PUT', '/api/builder/draft', 'subscriber', { account: 'catalog' }),
  route('DELETE', '/api/builder/draft', 'subscriber', { account: 'catalog' }),
  route('POST', '/api/builder/fetch-spotify-artist', 'subscriber', { account: 'catalog' }),
  route('POST', '/api/builder/search-spotify-artists', 'subscriber', { account: 'catalog' }),
  route('POST', '/api/builder/releases', 'subscriber', { account: 'catalog' }),
  route('GET', '/api/builder/uploads/:id', 'subscriber', { account: 'catalog' }),
  route('GET', '/api/builder/uploads/:id/thumbnail', 'subscriber', { account: 'catalog' }),
  route('ALL', '/api/uploads/:id?', 'subscriber', {
    account: 'catalog',
    call: { method: 'POST', path: '/api/uploads' },
  }),

  // the artist's releases
  route('GET', '/api/releases', 'user', { account: 'read' }),
  route('GET', '/api/releases/:id', 'user', { account: 'read', params: release, owned: true }),
  route('PATCH', '/api/releases/:id', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: {
      json: {
        title: 'Edited Title',
        primaryArtists: ['Owner Artist'],
        genre: 'Rock',
        labelName: 'My Label',
        copyrightHolder: 'Owner Holdings',
        copyrightYear: 2020,
        publishingHolder: 'Owner Publishing',
      },
    },
  }),
  route('POST', '/api/releases/:id/takedown', 'user', { account: 'catalog', params: release, owned: true }),
  route('GET', '/api/releases/:id/cover/:size', 'user', {
    account: 'read',
    params: { id: 'release', size: 'coverSize' },
    owned: true,
  }),
  route('DELETE', '/api/releases/:id', 'subscriber', { account: 'catalog', params: release, owned: true }),
  route('POST', '/api/releases/:id/resubmit', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
  }),
  // post-release edits (record 197)
  route('POST', '/api/releases/:id/update', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: { json: { coverUploadId: 'a'.repeat(32) } },
  }),
  route('GET', '/api/releases/:id/update', 'user', { account: 'read', params: release, owned: true }),
  route('GET', '/api/release-updates/:id/cover/:which', 'user', {
    account: 'read',
    call: { path: '/api/release-updates/00000000-0000-4000-8000-000000000000/cover/after' },
  }),
  route('GET', '/api/release-updates/:id/tracks/:trackId/audio', 'user', { account: 'read' }),
  route('GET', '/api/admin/release-updates', 'moderator'),
  route('POST', '/api/admin/release-updates/:id/approve', 'moderator'),
  route('POST', '/api/admin/release-updates/:id/reject', 'moderator', {
    call: { json: { reason: 'The new cover has a URL on it.' } },
  }),
  route('PUT', '/api/releases/:id/tracks', 'subscriber', { account: 'catalog', params: release }),
  route('GET', '/api/releases/:id/tracks/:trackId/audio', 'user', {
    account: 'read',
    params: { id: 'release', trackId: 'track' },
    owned: true,
  }),
  route('PUT', '/api/releases/:id/cover', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: { json: { uploadId: 'a'.repeat(32) } },
  }),
  route('POST', '/api/releases/:id/tracks', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: {
      json: {
        title: 'Added Track',
        audioUploadId: 'a'.repeat(32),
        explicit: false,
        primaryArtists: [{ name: 'Test Artist' }],
        featuredArtists: [],
        songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music' }],
        producers: [{ firstName: 'Pat', lastName: 'Producer' }],
        aiDisclosure: { usage: 'none' },
      },
    },
  }),
  // The matrix's release has one track: the owner's delete is refused (1 to 20 tracks), nothing changes.
  route('DELETE', '/api/releases/:id/tracks/:trackId', 'subscriber', {
    account: 'catalog',
    params: { id: 'release', trackId: 'track' },
    owned: true,
  }),
  route('PUT', '/api/releases/:id/tracks/:trackId/audio', 'subscriber', {
    account: 'catalog',
    params: { id: 'release', trackId: 'track' },
    owned: true,
    call: { json: { uploadId: 'a'.repeat(32) } },
  }),

  // wallet and analytics
  route('GET', '/api/wallet', 'user', { account: 'read' }),
  route('PUT', '/api/wallet/payment-settings', 'user', { account: 'finance' }),
  route('POST', '/api/wallet/payment-settings/resend', 'user', { account: 'finance' }),
  route('POST', '/api/wallet/payment-settings/confirm', 'user', {
    account: 'read',
    call: { json: { token: 'not-a-token' } },
  }),
  route('POST', '/api/wallet/withdrawals', 'user', { account: 'finance' }),
  route('POST', '/api/wallet/withdrawals/:id/cancel', 'user', {
    account: 'finance',
    params: { id: 'withdrawal' },
    owned: true,
  }),
  route('GET', '/api/admin/wallet/payee-settings', 'admin'),
  route('PUT', '/api/admin/wallet/payee-settings', 'admin', { call: { json: { minimumWithdrawal: '25' } } }),
  route('GET', '/api/analytics', 'subscriber', { account: 'read' }),
  route('GET', '/api/analytics/withdrawals.csv', 'subscriber', { account: 'read' }),
  route('GET', '/api/analytics/earnings', 'subscriber', { account: 'read' }),
  route('GET', '/api/analytics/earnings.csv', 'subscriber', { account: 'read' }),

  // release review (moderators and admins)
  route('GET', '/api/admin/releases', 'moderator'),
  route('GET', '/api/admin/releases/:id/export/manifest', 'moderator', { params: release }),
  route('GET', '/api/admin/releases/:id/export', 'moderator', { params: release }),
  route('GET', '/api/admin/releases/:id/tracks/:trackId/audio', 'moderator', {
    params: { id: 'release', trackId: 'track' },
  }),
  route('POST', '/api/admin/releases/bulk-review', 'moderator', {
    call: { json: { ids: ['00000000-0000-4000-8000-000000000000'], action: 'approve' } },
  }),
  route('POST', '/api/admin/releases/:id/approve', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/unapprove', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/reject', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/unreject', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/takedown/approve', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/takedown/reject', 'moderator', { params: release }),
  route('POST', '/api/admin/releases/:id/uploader/ban', 'moderator'),
  route('POST', '/api/admin/releases/:id/uploader/unban', 'moderator'),
  route('GET', '/api/admin-audio-signed-url', 'moderator', {
    call: { path: '/api/admin-audio-signed-url?bucket=audio-files&path=nobody%2Fnothing.wav' },
  }),
  route('GET', '/api/admin/signed-files', 'public', {
    call: { path: '/api/admin/signed-files?bucket=audio-files&path=a.wav&expires=1&signature=x' },
  }),
  route('DELETE', '/api/admin/releases/:id', 'moderator'),

  // admin only
  route('GET', '/api/admin/audit', 'admin'),
  route('GET', '/api/admin/audit.csv', 'admin'),
  route('GET', '/api/admin/users', 'admin'),
  route('PUT', '/api/admin/users/:id/roles/:role', 'admin', { params: { id: 'user', role: 'role' } }),
  route('DELETE', '/api/admin/users/:id/roles/:role', 'admin', { params: { id: 'user', role: 'role' } }),
  route('POST', '/api/admin/users/:id/ban', 'admin'),
  route('POST', '/api/admin/users/:id/unban', 'admin'),
  route('GET', '/api/admin/withdrawals', 'admin'),
  route('POST', '/api/admin/withdrawals/:id/approve', 'admin'),
  route('POST', '/api/admin/withdrawals/:id/reject', 'admin'),
  route('GET', '/api/admin/balances/users', 'admin', { call: { path: '/api/admin/balances/users?q=a' } }),
  route('PUT', '/api/admin/balances/users/:id', 'admin'),
  route('POST', '/api/admin/balances/verify', 'admin'),
  route('POST', '/api/admin/balances/apply', 'admin'),
  route('GET', '/api/admin/messages', 'admin'),
  route('PATCH', '/api/admin/messages/:id', 'admin'),

  // support (issue 28): the signed-in user's Help messages, the admin's list, replies and time zone
  route('GET', '/api/support/messages', 'user', { account: 'personal' }),
  route('POST', '/api/support/messages', 'user', { account: 'personal' }),
  route('GET', '/api/support/messages/:id', 'user', {
    account: 'personal',
    params: { id: 'supportMessage' },
    owned: true,
  }),
  route('GET', '/api/admin/support/messages', 'admin'),
  route('POST', '/api/admin/support/messages/:id/replies', 'admin', {
    params: { id: 'supportMessage' },
    call: { json: { body: 'Thanks, we are on it.' } },
  }),
  route('GET', '/api/admin/support/settings', 'admin'),
  route('PUT', '/api/admin/support/settings', 'admin', { call: { json: { timeZone: 'UTC' } } }),

  // content id (issue 28): the Pro artist's per-track opt-in and channel allow-list, the admin's list
  route('GET', '/api/content-id/releases/:id', 'subscriber', {
    account: 'read',
    params: { id: 'release' },
    owned: true,
  }),
  route('PUT', '/api/content-id/tracks/:trackId', 'subscriber', {
    account: 'catalog',
    params: { trackId: 'track' },
    owned: true,
    call: { json: CONTENT_ID_ELIGIBLE_ANSWERS },
  }),
  route('DELETE', '/api/content-id/tracks/:trackId', 'subscriber', {
    account: 'catalog',
    params: { trackId: 'track' },
    owned: true,
  }),
  route('GET', '/api/content-id/channels', 'subscriber', { account: 'read' }),
  route('POST', '/api/content-id/channels', 'subscriber', {
    account: 'catalog',
    call: { json: { channelId: 'UCabcdefghijklmnopqrstuv' } },
  }),
  route('DELETE', '/api/content-id/channels/:id', 'subscriber', { account: 'catalog' }),
  route('GET', '/api/admin/content-id', 'admin'),
  route('GET', '/api/content-id/claims', 'subscriber', { account: 'read' }),
  route('POST', '/api/content-id/claims/:id/release', 'subscriber', { account: 'catalog' }),
  route('GET', '/api/admin/content-id/claims', 'admin'),
  route('POST', '/api/admin/content-id/claims/:id/done', 'admin'),
  route('PUT', '/api/admin/content-id/tracks/:trackId/asset', 'admin', {
    params: { trackId: 'track' },
    call: { json: { assetId: 'A1234567890123456' } },
  }),

  // delivery (issue 15): admin only, and the owner's release detail and per-store takedown requests
  route('GET', '/api/admin/settings', 'admin'),
  route('PUT', '/api/admin/settings', 'admin'),
  route('GET', '/api/admin/delivery/targets', 'admin'),
  route('POST', '/api/admin/delivery/targets', 'admin'),
  route('PATCH', '/api/admin/delivery/targets/:id', 'admin'),
  route('DELETE', '/api/admin/delivery/targets/:id', 'admin'),
  route('POST', '/api/admin/delivery/targets/:id/test', 'admin'),
  route('GET', '/api/admin/delivery/unconnected-stores', 'admin'),
  route('GET', '/api/admin/delivery/unmatched-acks', 'admin'),
  route('GET', '/api/admin/deliveries', 'admin'),
  route('GET', '/api/admin/deliveries/:id', 'admin'),
  route('GET', '/api/admin/deliveries/:id/attempts/:attemptId/package', 'admin'),
  route('POST', '/api/admin/deliveries/:id/retry', 'admin'),
  route('POST', '/api/admin/releases/:id/takedown', 'admin', { params: release }),
  route('POST', '/api/admin/releases/:id/store-takedowns/approve', 'moderator', {
    params: release,
    call: { json: { platformId: 'spotify' } },
  }),
  route('POST', '/api/admin/releases/:id/store-takedowns/reject', 'moderator', {
    params: release,
    call: { json: { platformId: 'spotify', reason: 'The store is contracted until the end of the year.' } },
  }),
  route('GET', '/api/releases/:id/detail', 'user', { account: 'read', params: release, owned: true }),
  route('POST', '/api/releases/:id/store-takedowns', 'user', {
    account: 'catalog',
    params: release,
    owned: true,
    call: { json: { platformId: 'spotify' } },
  }),

  // royalties: imports and presets for admins, the artist's ledger and statements
  route('GET', '/api/admin/royalties/imports', 'admin'),
  route('POST', '/api/admin/royalties/imports', 'admin'),
  route('GET', '/api/admin/royalties/imports/:id', 'admin'),
  route('DELETE', '/api/admin/royalties/imports/:id', 'admin'),
  route('POST', '/api/admin/royalties/imports/:id/post', 'admin'),
  route('POST', '/api/admin/royalties/imports/:id/retry', 'admin'),
  route('POST', '/api/admin/royalties/imports/:id/include-overlap', 'admin', {
    call: { json: { confirm: true } },
  }),
  // a report's currency, rate and sanity warnings (record 187)
  route('POST', '/api/admin/royalties/imports/inspect', 'admin', {
    call: { headers: { 'content-type': 'application/octet-stream' } },
  }),
  route('PUT', '/api/admin/royalties/imports/:id/rate', 'admin', { call: { json: { rate: '1.25' } } }),
  route('GET', '/api/admin/royalties/imports/:id/warnings', 'admin'),
  route('POST', '/api/admin/royalties/imports/:id/warnings/:warningId/accept', 'admin'),
  route('POST', '/api/admin/royalties/imports/:id/warnings/:warningId/resolve', 'admin'),
  route('GET', '/api/admin/royalties/unmatched', 'admin'),
  route('GET', '/api/admin/royalties/imports/:id/figures', 'admin'),
  // finance (issue 25, record 189)
  route('GET', '/api/admin/finance', 'admin'),
  route('GET', '/api/admin/finance/export.csv', 'admin'),
  route('GET', '/api/admin/finance/fees', 'admin'),
  route('PUT', '/api/admin/finance/fees', 'admin', { call: { json: { basic: '0', pro: '0', payee: '0' } } }),
  route('GET', '/api/admin/users/:id/fee', 'admin', { params: { id: 'user' } }),
  route('PUT', '/api/admin/users/:id/fee', 'admin', {
    params: { id: 'user' },
    call: { json: { feePercent: null } },
  }),
  route('POST', '/api/admin/royalties/code-mappings', 'admin'),
  route('GET', '/api/admin/royalties/suspense', 'admin'),
  route('POST', '/api/admin/royalties/suspense/assign', 'admin'),
  route('POST', '/api/admin/royalties/suspense/release', 'admin'),
  route('GET', '/api/admin/royalties/presets', 'admin'),
  route('POST', '/api/admin/royalties/presets', 'admin'),
  route('PUT', '/api/admin/royalties/presets/:id', 'admin'),
  route('DELETE', '/api/admin/royalties/presets/:id', 'admin'),
  route('GET', '/api/royalties/ledger', 'user', { account: 'read' }),
  route('GET', '/api/royalties/statements', 'user', { account: 'read' }),
  route('GET', '/api/royalties/statements/:file', 'user', {
    account: 'read',
    call: { path: '/api/royalties/statements/2026-01.csv' },
  }),
  route('GET', '/api/royalties/statements/:period/summary', 'user', {
    account: 'read',
    call: { path: '/api/royalties/statements/2026-01/summary' },
  }),
  route('GET', '/api/admin/royalties/statement-issuer', 'admin'),
  route('PUT', '/api/admin/royalties/statement-issuer', 'admin', {
    call: { json: { legalName: 'Tunedrop Music Ltd', address: '1 Sound Street\nLondon' } },
  }),
  // payouts: the artist's payouts, the admin's runs and providers, the provider's webhook (issue 38, record 267)
  route('GET', '/api/payouts', 'user', { account: 'read' }),
  route('GET', '/api/payouts/stripe', 'user', { account: 'read' }),
  route('POST', '/api/payouts/stripe/onboarding', 'user', { account: 'finance' }),
  route('POST', '/api/payouts/stripe/use', 'user', { account: 'finance' }),
  route('POST', '/api/payouts/webhooks/paypal', 'public'),
  route('POST', '/api/payouts/webhooks/stripe', 'public'),
  route('POST', '/api/payouts/webhooks/wise', 'public'),
  route('GET', '/api/admin/payouts/settings', 'admin'),
  route('PUT', '/api/admin/payouts/providers', 'admin'),
  route('POST', '/api/admin/payouts/providers/:provider/test', 'admin', {
    call: { path: '/api/admin/payouts/providers/bank-csv/test' },
  }),
  route('PUT', '/api/admin/payouts/schedule', 'admin'),
  route('GET', '/api/admin/payouts/preview', 'admin'),
  route('GET', '/api/admin/payouts/runs', 'admin'),
  route('POST', '/api/admin/payouts/runs', 'admin'),
  route('GET', '/api/admin/payouts/runs/:id', 'admin'),
  route('GET', '/api/admin/payouts/runs/:id/file', 'admin'),
  route('POST', '/api/admin/payouts/runs/:id/confirmation', 'admin'),
  route('POST', '/api/admin/payouts/runs/:id/poll', 'admin'),
  route('POST', '/api/admin/payouts/runs/:id/resume', 'admin'),
  route('POST', '/api/admin/payouts/items/:id/retry', 'admin'),
  route('POST', '/api/admin/payouts/items/:id/mark', 'admin'),

  // tax forms, rates and withholding (issue 38, record 270)
  route('GET', '/api/tax/standing', 'user'),
  route('POST', '/api/tax/residency', 'user', { call: { json: { isUsPerson: true } } }),
  route('POST', '/api/tax/forms', 'user'),
  route('GET', '/api/tax/forms/:id/pdf', 'user'),
  route('GET', '/api/tax/vat', 'user'),
  route('PUT', '/api/tax/vat', 'user', { call: { json: { vatNumber: 'DE123456789', ratePercent: '19' } } }),
  route('GET', '/api/tax/invoices', 'user'),
  route('GET', '/api/tax/invoices/:id/pdf', 'user'),
  route('GET', '/api/admin/tax/settings', 'admin'),
  route('PUT', '/api/admin/tax/settings', 'admin', {
    call: { json: { regime: 'us_withholding_agent', noW9Policy: 'block', scope: 'us_territory' } },
  }),
  route('GET', '/api/admin/tax/treaty-rates', 'admin'),
  route('POST', '/api/admin/tax/treaty-rates', 'admin'),
  route('GET', '/api/admin/tax/forms', 'admin'),
  route('GET', '/api/admin/tax/forms/:id/pdf', 'admin'),
  route('POST', '/api/admin/tax/forms/:id/invalidate', 'admin'),
  route('GET', '/api/admin/tax/invoices', 'admin'),
  route('GET', '/api/admin/tax/invoices/:id/pdf', 'admin'),
  route('GET', '/api/admin/tax/reports/:year/:form', 'admin', {
    call: { path: '/api/admin/tax/reports/2026/1099-misc' },
  }),
  // lapsed accounts (record 196)
  // label contracts (issue 39, record 285)
  route('GET', '/api/admin/contracts', 'admin'),
  route('GET', '/api/admin/contracts/label-releases', 'admin', {
    call: { path: '/api/admin/contracts/label-releases?email=nobody%40example.com' },
  }),
  route('GET', '/api/admin/contracts/:id', 'admin'),
  route('POST', '/api/admin/contracts', 'admin'),
  route('PUT', '/api/admin/contracts/:id', 'admin'),
  route('GET', '/api/admin/contracts/:id/advances', 'admin'),
  route('POST', '/api/admin/contracts/:id/advances', 'admin'),
  route('GET', '/api/admin/lapse-policy', 'admin'),
  route('PUT', '/api/admin/lapse-policy', 'admin', { call: { json: { mode: 'keep_live' } } }),
  route('GET', '/api/me/lapse-standing', 'user', { account: 'read' }),
  // catalogue import (record 200)
  route('GET', '/api/admin/catalogue-imports', 'admin'),
  route('POST', '/api/admin/catalogue-imports', 'admin', {
    call: { json: { folder: 'none', ownerEmail: 'nobody@example.com' } },
  }),
  route('GET', '/api/admin/catalogue-imports/:id', 'admin'),
  route('GET', '/api/admin/catalogue-imports/:id/report.txt', 'admin'),
  // the operator's brand and plans (issue 27, record 203)
  route('GET', '/api/admin/brand', 'admin'),
  route('PUT', '/api/admin/brand', 'admin', {
    call: {
      json: {
        productName: 'Tunedrop',
        accentColor: '#7c3aed',
        supportEmail: '',
        privacyEmail: '',
        platformsClaim: '150+',
      },
    },
  }),
  route('GET', '/api/admin/plans', 'admin'),
  route('PUT', '/api/admin/plans', 'admin', { call: { json: {} } }),
  route('GET', '/api/admin/brand/warnings', 'admin'),
  route('PUT', '/api/admin/brand/logo', 'admin'),
  route('DELETE', '/api/admin/brand/logo', 'admin'),
  route('GET', '/api/brand/logo/:name', 'public', {
    call: { path: '/api/brand/logo/logo-0000000000000000.png' },
  }),
  // artist profiles (issue 27, record 201)
  route('GET', '/api/artist-profiles', 'user', { account: 'read' }),
  route('POST', '/api/artist-profiles', 'subscriber', {
    account: 'catalog',
    call: { json: { name: 'Matrix Alias' } },
  }),
  route('PATCH', '/api/artist-profiles/:id', 'subscriber', {
    account: 'catalog',
    call: { json: { name: 'Matrix Alias' } },
  }),
  route('PUT', '/api/artist-profiles/:id/image', 'subscriber', { account: 'catalog' }),
  route('DELETE', '/api/artist-profiles/:id/image', 'subscriber', { account: 'catalog' }),
  route('GET', '/api/artist-profiles/:id/image', 'user', { account: 'read' }),

  // royalty splits (issue 17): the owner's splits and expenses, invitations, the payee's shares
  route('GET', '/api/releases/:id/splits', 'user', { account: 'read', params: release, owned: true }),
  route('PUT', '/api/releases/:id/splits', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: { json: { trackId: null, ownerPercent: '100', payees: [] } },
  }),
  route('POST', '/api/releases/:id/splits/payees/:payeeId/withdraw', 'user', {
    account: 'catalog',
    params: release,
  }),
  route('POST', '/api/releases/:id/expenses', 'subscriber', {
    account: 'catalog',
    params: release,
    owned: true,
    call: { json: { amount: '10.00', description: 'Mastering', spentOn: '2026-01-15' } },
  }),
  route('GET', '/api/split-invitations/:token', 'public', {
    call: { path: '/api/split-invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  }),
  route('POST', '/api/split-invitations/:token/accept', 'user', {
    account: 'personal',
    call: { path: '/api/split-invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/accept' },
  }),
  route('GET', '/api/splits/shares', 'user', { account: 'personal' }),

  // staff notifications (issue 26, record 179): a moderator's or admin's own choices per kind
  route('GET', '/api/staff-notifications/preferences', 'moderator'),
  route('PUT', '/api/staff-notifications/preferences', 'moderator', {
    call: { json: { preferences: [{ kind: 'release_submitted', mode: 'digest' }] } },
  }),

  // API keys (issue 40, record 290): the service admits the owner and team admins; the v1 document
  route('GET', '/api/api-keys', 'user', { account: 'personal' }),
  route('POST', '/api/api-keys', 'user', {
    account: 'personal',
    call: { json: { name: 'Matrix', scopes: ['catalogue:read'] } },
  }),
  route('DELETE', '/api/api-keys/:id', 'user', { account: 'personal' }),
  route('GET', '/api/v1/openapi.json', 'public'),
  route('GET', '/api/v1/reference', 'public'),
  route('GET', '/api/v1/reference/scalar.js', 'public'),
  // webhooks (record 291): the same managers as API keys
  route('GET', '/api/webhooks/endpoints', 'user', { account: 'personal' }),
  route('POST', '/api/webhooks/endpoints', 'user', {
    account: 'personal',
    call: { json: { url: 'https://hooks.example.com/tunedrop' } },
  }),
  route('DELETE', '/api/webhooks/endpoints/:id', 'user', { account: 'personal' }),
  route('POST', '/api/webhooks/endpoints/:id/rotate', 'user', { account: 'personal' }),
  route('POST', '/api/webhooks/endpoints/:id/test', 'user', { account: 'personal' }),
  route('GET', '/api/webhooks/endpoints/:id/deliveries', 'user', { account: 'personal' }),
  route('POST', '/api/webhooks/deliveries/:id/redeliver', 'user', { account: 'personal' }),

  // only mounted with E2E_FIXTURES_TOKEN (tests); the token itself is the check
  route('POST', '/api/test-fixtures/users', 'public'),
  route('POST', '/api/test-fixtures/releases', 'public'),
  route('POST', '/api/test-fixtures/releases/:id/release-date', 'public'),
  route('POST', '/api/test-fixtures/delivery/run', 'public'),
  route('POST', '/api/test-fixtures/lapse-policy/run', 'public'),
  route('POST', '/api/test-fixtures/tax-form', 'public'),
  route('POST', '/api/test-fixtures/payouts/run', 'public'),
  route('POST', '/api/test-fixtures/payouts/run-killed', 'public'),
  route('POST', '/api/test-fixtures/royalty-imports/stuck', 'public'),
];

/** The app's routes, then /api/v1: one row per v1 route, made from the app route it runs (record 290). */
export const ROUTE_TABLE: RouteRow[] = [...APP_ROUTES, ...v1Rows(APP_ROUTES)];
