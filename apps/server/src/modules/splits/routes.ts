/**
 * Royalty splits routes (issue 17; the list is in packages/shared/src/schemas/splits.ts). Thin: the
 * service holds the rules (ownership, percentages, versions, invitations) and the transactions.
 * Any signed-in account reads these, subscribed or not: collaborators need no plan (decision 120, 318).
 * Saving a split (which mails invitations) and adding an expense change a release, so like every other
 * release change they need a subscription (record 147); withdrawing an invitation stays open to a lapsed
 * owner, since it only stops money going to an address that never accepted.
 */
import { expenseSchema, SPLIT_TEXTS, splitSetSchema } from '@tunedrop/shared/schemas/splits';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { addExpense } from './expenses';
import { InvitationLimitError } from './invitation-limits';
import { acceptInvitation, getInvitation } from './invitations';
import { listPayeeShares } from './payee-shares';
import { getReleaseSplits } from './release-splits';
import { saveSplit, withdrawPayee } from './service';

const tokenOf = (token: string) => {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound(SPLIT_TEXTS.invitationNotFound);
  return token;
};

export const splitsRoutes = new Hono<AppEnv>()
  .get('/releases/:id/splits', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const releaseId = uuidParam(c.req.param('id'), 'Release not found');
    return c.json(await getReleaseSplits(c.var.deps.db, releaseId, viewer), 200);
  })
  .put(
    '/releases/:id/splits',
    access('subscriber', 'catalog'),
    validate('json', splitSetSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const releaseId = uuidParam(c.req.param('id'), 'Release not found');
      const { db, config } = c.var.deps;
      try {
        const result = await saveSplit(db, releaseId, viewer, c.req.valid('json'), config.appUrl);
        c.var.deps.wakeMail();
        return c.json(result, 200);
      } catch (error) {
        if (error instanceof InvitationLimitError) c.header('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
    },
  )
  .post('/releases/:id/splits/payees/:payeeId/withdraw', access('user', 'catalog'), async (c) => {
    const viewer = requireViewer(c);
    const releaseId = uuidParam(c.req.param('id'), 'Release not found');
    const payeeId = uuidParam(c.req.param('payeeId'), 'Invitation not found');
    return c.json(await withdrawPayee(c.var.deps.db, releaseId, payeeId, viewer), 200);
  })
  .post(
    '/releases/:id/expenses',
    access('subscriber', 'catalog'),
    validate('json', expenseSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const releaseId = uuidParam(c.req.param('id'), 'Release not found');
      const { db, config } = c.var.deps;
      const result = await addExpense(db, releaseId, viewer, c.req.valid('json'), config.appUrl);
      c.var.deps.wakeMail();
      return c.json(result, 201);
    },
  )
  .get('/split-invitations/:token', access('public'), async (c) => {
    const viewer = c.get('viewer') ?? null;
    return c.json(await getInvitation(c.var.deps.db, tokenOf(c.req.param('token')), viewer), 200);
  })
  .post('/split-invitations/:token/accept', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await acceptInvitation(c.var.deps.db, tokenOf(c.req.param('token')), viewer), 200);
  })
  .get('/splits/shares', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await listPayeeShares(c.var.deps.db, viewer.user.id), 200);
  });
