/** HTTP routes of the Pro analytics page; basic users are refused here too (403), not only in the browser. */
import { hasProFeatures } from '@tunedrop/shared';
import { earningsBreakdownQuerySchema } from '@tunedrop/shared/schemas/analytics';
import { isTeamMemberOf, MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { ANALYTICS_TEXTS, analyticsQuerySchema } from '@tunedrop/shared/schemas/wallet';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { accountIdOf, resolveProfileFilter } from '../artist-profiles';
import { earningsCsv, getEarningsBreakdown } from './earnings';
import { getAnalytics, withdrawalsCsv } from './service';

function requirePro(c: Context<AppEnv>) {
  const viewer = requireViewer(c);
  if (!hasProFeatures(viewer.profile.plan, viewer.roles))
    throw new AppError(
      'pro_required',
      isTeamMemberOf(viewer) ? MEMBER_LOCK_TEXTS.analytics : ANALYTICS_TEXTS.proOnly,
      403,
    );
  return viewer;
}

export const analyticsRoutes = new Hono<AppEnv>()
  .get('/analytics', access('subscriber', 'read'), validate('query', analyticsQuerySchema), async (c) => {
    const viewer = requirePro(c);
    return c.json(await getAnalytics(c.var.deps.db, viewer.account.id, c.req.valid('query').range), 200);
  })
  .get('/analytics/withdrawals.csv', access('subscriber', 'read'), async (c) => {
    const viewer = requirePro(c);
    const csv = await withdrawalsCsv(c.var.deps.db, viewer.account.id);
    const day = new Date().toISOString().slice(0, 10);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`withdrawals-${day}.csv`));
    c.header('Cache-Control', 'no-store');
    return c.body(csv, 200);
  })
  .get(
    '/analytics/earnings',
    access('subscriber', 'read'),
    validate('query', earningsBreakdownQuerySchema),
    async (c) => {
      const viewer = requirePro(c);
      const { months, artistProfileId } = c.req.valid('query');
      const accountId = accountIdOf(viewer);
      const profileId = await resolveProfileFilter(c.var.deps.db, accountId, artistProfileId);
      return c.json(await getEarningsBreakdown(c.var.deps.db, accountId, months, profileId), 200);
    },
  )
  .get(
    '/analytics/earnings.csv',
    access('subscriber', 'read'),
    validate('query', earningsBreakdownQuerySchema),
    async (c) => {
      const viewer = requirePro(c);
      const { months, artistProfileId } = c.req.valid('query');
      const accountId = accountIdOf(viewer);
      const profileId = await resolveProfileFilter(c.var.deps.db, accountId, artistProfileId);
      const csv = await earningsCsv(c.var.deps.db, accountId, months, profileId);
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header(
        'Content-Disposition',
        attachmentDisposition(`earnings-${months === 'all' ? 'all-time' : `last-${months}-months`}.csv`),
      );
      c.header('Cache-Control', 'no-store');
      return c.body(csv, 200);
    },
  );
