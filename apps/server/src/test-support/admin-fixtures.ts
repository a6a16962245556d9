/** Fixtures for the admin user, withdrawal and balance tests: signed-in staff and every admin-only route. */
import type { TestSystem } from './harness';

export async function staff(system: TestSystem) {
  const [admin, moderator, artist] = await Promise.all([
    system.signedInUser({ roles: ['admin'], email: `admin-${crypto.randomUUID().slice(0, 8)}@example.com` }),
    system.signedInUser({ roles: ['moderator'] }),
    system.signedInUser({ plan: 'pro' }),
  ]);
  return { admin, moderator, artist };
}

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every route of issue 10, with a body that would pass validation. */
export const ADMIN_ROUTES: { method: string; path: string; json?: unknown }[] = [
  { method: 'GET', path: '/api/admin/users' },
  { method: 'PUT', path: `/api/admin/users/${SOME_ID}/roles/free_access` },
  { method: 'DELETE', path: `/api/admin/users/${SOME_ID}/roles/moderator` },
  { method: 'POST', path: `/api/admin/users/${SOME_ID}/ban`, json: { reason: 'spam' } },
  { method: 'POST', path: `/api/admin/users/${SOME_ID}/unban` },
  { method: 'GET', path: '/api/admin/withdrawals' },
  { method: 'POST', path: `/api/admin/withdrawals/${SOME_ID}/approve` },
  { method: 'POST', path: `/api/admin/withdrawals/${SOME_ID}/reject`, json: { reason: 'no' } },
  { method: 'GET', path: '/api/admin/balances/users?q=a' },
  {
    method: 'PUT',
    path: `/api/admin/balances/users/${SOME_ID}`,
    json: { balanceCents: 1, totalEarningsCents: 1, pendingBalanceCents: 0 },
  },
  {
    method: 'POST',
    path: '/api/admin/balances/verify',
    json: { rows: [{ line: 2, identifier: 'a@b.c', newBalanceCents: 1 }] },
  },
  {
    method: 'POST',
    path: '/api/admin/balances/apply',
    json: { rows: [{ line: 2, userId: SOME_ID, expectedOldBalanceCents: 0, newBalanceCents: 1 }] },
  },
];
