/**
 * Finance routes (issue 25, record 189), admin only: the overview and its CSV, the fee per plan, an
 * account's fee override, and a report's posting figures (the confirmation's and the result's).
 */
import {
  accountFeeSchema,
  FEE_PLAN_LABELS,
  FEE_PLANS,
  feeSettingsSchema,
} from '@tunedrop/shared/schemas/finance';
import { safeText } from '@tunedrop/shared/text';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { profiles } from '../../db/schema';
import { access, requireViewer } from '../../lib/access';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { recordAudit } from '../audit';
import {
  postingFigures,
  readAccountFee,
  readFeeSettings,
  saveAccountFee,
  saveFeeSettings,
} from '../royalty-posting';
import { financeCsv, financeOverview } from './overview';

const idParam = z.object({ id: z.uuid('Not found') });
const userParam = z.object({ id: safeText().min(1).max(200) });

export const financeRoutes = new Hono<AppEnv>()
  .get('/admin/finance', access('admin'), async (c) => {
    return c.json(await financeOverview(c.var.deps.db), 200);
  })
  .get('/admin/finance/export.csv', access('admin'), async (c) => {
    const csv = financeCsv(await financeOverview(c.var.deps.db));
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition('finance-overview.csv'));
    return c.body(csv, 200);
  })
  .get('/admin/finance/fees', access('admin'), async (c) => {
    return c.json(await readFeeSettings(c.var.deps.db), 200);
  })
  .put('/admin/finance/fees', access('admin'), validate('json', feeSettingsSchema), async (c) => {
    const viewer = requireViewer(c);
    const saved = await c.var.deps.db.transaction(async (tx) => {
      const result = await saveFeeSettings(tx, c.req.valid('json'), viewer.user.id);
      for (const plan of FEE_PLANS) {
        if (result.before[plan] === result.after[plan]) continue;
        await recordAudit(tx, viewer, {
          kind: 'finance.fee',
          subject: { type: 'plan', id: plan, label: `${FEE_PLAN_LABELS[plan]} fee` },
          before: { feePercent: result.before[plan] },
          after: { feePercent: result.after[plan] },
        });
      }
      return result;
    });
    return c.json(saved.after, 200);
  })
  .get('/admin/users/:id/fee', access('admin'), validate('param', userParam), async (c) => {
    const fee = await readAccountFee(c.var.deps.db, c.req.valid('param').id);
    if (!fee) throw notFound('User not found');
    return c.json(fee, 200);
  })
  .put(
    '/admin/users/:id/fee',
    access('admin'),
    validate('param', userParam),
    validate('json', accountFeeSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const { id } = c.req.valid('param');
      const saved = await c.var.deps.db.transaction(async (tx) => {
        const before = await readAccountFee(tx, id);
        if (!before) throw notFound('User not found');
        await saveAccountFee(tx, id, c.req.valid('json').feePercent, viewer.user.id);
        const after = await readAccountFee(tx, id);
        if (!after) throw notFound('User not found');
        if (before.override !== after.override) {
          const [account] = await tx
            .select({ email: profiles.email, artistName: profiles.artistName })
            .from(profiles)
            .where(eq(profiles.id, id));
          await recordAudit(tx, viewer, {
            kind: 'finance.fee',
            subject: {
              type: 'account',
              id,
              label: account ? `${account.artistName} <${account.email}>` : id,
            },
            subjectUserId: id,
            before: { feePercent: before.override ?? `plan (${before.planPercent})` },
            after: { feePercent: after.override ?? `plan (${after.planPercent})` },
          });
        }
        return after;
      });
      return c.json(saved, 200);
    },
  )
  .get('/admin/royalties/imports/:id/figures', access('admin'), validate('param', idParam), async (c) => {
    return c.json(await postingFigures(c.var.deps.db, c.req.valid('param').id), 200);
  });
