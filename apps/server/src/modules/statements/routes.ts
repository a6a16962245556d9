/**
 * The artist's ledger and monthly statements, and who issues them (issue 25, records 190, 201, 208; the
 * list is in packages/shared/src/schemas/royalty-statements.ts). The paths stay under /royalties/.
 */
import { ARTIST_PROFILE_MESSAGES, artistProfileFilterSchema } from '@tunedrop/shared/schemas/artist-profiles';
import { statementPeriodSchema } from '@tunedrop/shared/schemas/royalties';
import { statementIssuerSchema } from '@tunedrop/shared/schemas/royalty-statements';
import { safeText } from '@tunedrop/shared/text';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { jsonBodyLimit } from '../../lib/body-limit';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { accountIdOf, findOwnArtistProfile } from '../artist-profiles';
import { getLedger, getStatementPeriods } from './ledger';
import { statementCsv, statementPdf, statementSummaryOf } from './statement-files';
import { readStatementIssuer, saveStatementIssuer } from './statement-issuer';

const cursorQuery = z.object({ cursor: safeText().max(500).optional() });

/** `?artistProfileId=` on a statement (record 201): one of the account's profiles (404 otherwise), or none. */
async function statementProfile(c: Context<AppEnv>, accountId: string) {
  const parsed = artistProfileFilterSchema.safeParse({
    artistProfileId: c.req.query('artistProfileId') || undefined,
  });
  if (!parsed.success) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  const id = parsed.data.artistProfileId;
  if (!id) return null;
  const profile = await findOwnArtistProfile(c.var.deps.db, accountId, id);
  return { id: profile.id, name: profile.name };
}

export const statementsRoutes = new Hono<AppEnv>()
  .get('/royalties/ledger', access('user', 'read'), validate('query', cursorQuery), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await getLedger(c.var.deps.db, viewer.account.id, c.req.valid('query').cursor), 200);
  })
  .get('/royalties/statements', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await getStatementPeriods(c.var.deps.db, viewer.account.id), 200);
  })
  // A statement on screen (record 190): the same figures as its CSV and PDF.
  .get(
    '/royalties/statements/:period/summary',
    access('user', 'read'),
    validate('query', artistProfileFilterSchema),
    async (c) => {
      const viewer = requireViewer(c);
      const period = statementPeriodSchema.safeParse(c.req.param('period'));
      if (!period.success) throw notFound('Statement not found');
      const accountId = accountIdOf(viewer);
      const artistProfile = await statementProfile(c, accountId);
      const statement = await statementSummaryOf(
        c.var.deps.db,
        accountId,
        period.data,
        artistProfile,
        c.var.deps.config.STATEMENT_THREADS,
      );
      if (statement === null) throw notFound('There is no statement for this month.');
      return c.json(statement, 200);
    },
  )
  // Who issues the statements (record 190): the operator's legal name and address.
  .get('/admin/royalties/statement-issuer', access('admin'), async (c) => {
    return c.json(await readStatementIssuer(c.var.deps.db), 200);
  })
  .put(
    '/admin/royalties/statement-issuer',
    access('admin'),
    jsonBodyLimit(),
    validate('json', statementIssuerSchema),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(
        await saveStatementIssuer(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer),
        200,
      );
    },
  )
  .get('/royalties/statements/:file', access('user', 'read'), async (c) => {
    const viewer = requireViewer(c);
    const match = /^(.+)\.(csv|pdf)$/.exec(c.req.param('file'));
    const period = match ? statementPeriodSchema.safeParse(match[1]) : null;
    if (!match || !period?.success) throw notFound('Statement not found');
    const accountId = accountIdOf(viewer);
    const artistProfile = await statementProfile(c, accountId);
    if (match[2] === 'pdf') {
      const threads = c.var.deps.config.STATEMENT_THREADS;
      const pdf = await statementPdf(c.var.deps.db, accountId, period.data, artistProfile, threads);
      if (pdf === null) throw notFound('There is no statement for this month.');
      c.header('Content-Type', 'application/pdf');
      c.header('Content-Disposition', attachmentDisposition(`tunedrop-statement-${period.data}.pdf`));
      return c.body(pdf, 200);
    }
    const threads = c.var.deps.config.STATEMENT_THREADS;
    const csv = await statementCsv(c.var.deps.db, accountId, period.data, artistProfile, threads);
    if (csv === null) throw notFound('There is no statement for this month.');
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', attachmentDisposition(`tunedrop-statement-${period.data}.csv`));
    return c.body(csv, 200);
  });
