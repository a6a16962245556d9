/**
 * Treaty withholding rates (issue 38): data with the dates they apply, seeded from IRS Table 1 (royalties,
 * income code 12) by migration 0075. The operator changes a country's rate from a date: the row in force
 * then is closed the day before and a new row added, in one transaction, audited; past payouts keep the
 * rate they were withheld at (tax_withholding_lines), so history never moves.
 */
import { ROYALTY_INCOME_CODE, type TreatyRate, treatyRateSchema } from '@tunedrop/shared/schemas/tax';
import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { taxTreatyRates } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { type AuditActor, recordAudit } from '../audit';

const day = (at: Date) => at.toISOString().slice(0, 10);

const toView = (row: typeof taxTreatyRates.$inferSelect): TreatyRate => ({
  id: row.id,
  country: row.country,
  incomeCode: ROYALTY_INCOME_CODE,
  ratePercent: row.ratePercent,
  article: row.article,
  effectiveFrom: row.effectiveFrom,
  effectiveTo: row.effectiveTo,
});

/** The royalty rate in force for a country on a day; null when the country has no treaty rate. */
export async function treatyRateAt(db: DbOrTx, country: string, asOf: Date): Promise<TreatyRate | null> {
  const on = day(asOf);
  const [row] = await db
    .select()
    .from(taxTreatyRates)
    .where(
      and(
        eq(taxTreatyRates.country, country),
        eq(taxTreatyRates.incomeCode, ROYALTY_INCOME_CODE),
        lte(taxTreatyRates.effectiveFrom, on),
        or(isNull(taxTreatyRates.effectiveTo), sql`${taxTreatyRates.effectiveTo} >= ${on}`),
      ),
    )
    .orderBy(sql`${taxTreatyRates.effectiveFrom} desc`)
    .limit(1);
  return row ? toView(row) : null;
}

/** Every row, by country then date: what the admin page lists (the history included). */
export async function listTreatyRates(db: DbOrTx): Promise<TreatyRate[]> {
  const found = await db
    .select()
    .from(taxTreatyRates)
    .where(eq(taxTreatyRates.incomeCode, ROYALTY_INCOME_CODE))
    .orderBy(asc(taxTreatyRates.country), asc(taxTreatyRates.effectiveFrom));
  return found.map(toView);
}

/**
 * Sets a country's rate from a day: the row in force that day ends the day before; a later row would make
 * the new one end before it (refused: change the later row instead).
 */
export async function saveTreatyRate(
  db: Db,
  input: z.input<typeof treatyRateSchema>,
  actor: AuditActor,
): Promise<TreatyRate> {
  const rate = treatyRateSchema.parse(input);
  return db.transaction(async (tx) => {
    const [later] = await tx
      .select({ id: taxTreatyRates.id })
      .from(taxTreatyRates)
      .where(
        and(
          eq(taxTreatyRates.country, rate.country),
          eq(taxTreatyRates.incomeCode, ROYALTY_INCOME_CODE),
          gt(taxTreatyRates.effectiveFrom, rate.effectiveFrom),
        ),
      )
      .limit(1);
    if (later) {
      throw conflict(
        `A rate for ${rate.country} already starts after ${rate.effectiveFrom}: change that one instead.`,
      );
    }
    const before = await treatyRateAt(tx, rate.country, new Date(`${rate.effectiveFrom}T00:00:00Z`));
    if (before && before.effectiveFrom === rate.effectiveFrom) {
      throw conflict(
        `A rate for ${rate.country} already starts on ${rate.effectiveFrom}: choose a later date.`,
      );
    }
    if (before) {
      await tx
        .update(taxTreatyRates)
        .set({ effectiveTo: sql`(${rate.effectiveFrom}::date - 1)` })
        .where(eq(taxTreatyRates.id, before.id));
    }
    const [created] = await tx
      .insert(taxTreatyRates)
      .values({
        country: rate.country,
        incomeCode: ROYALTY_INCOME_CODE,
        ratePercent: rate.ratePercent,
        article: rate.article,
        effectiveFrom: rate.effectiveFrom,
        source: 'operator',
        updatedBy: 'user' in actor ? actor.user.id : actor.id,
      })
      .returning();
    if (!created) throw new Error('treaty rate not written');
    await recordAudit(tx, actor, {
      kind: 'tax.treaty_rate',
      subject: { type: 'treaty_rate', id: created.id, label: `${rate.country} royalties (income code 12)` },
      before: before
        ? { ratePercent: before.ratePercent, article: before.article, from: before.effectiveFrom }
        : null,
      after: { ratePercent: rate.ratePercent, article: rate.article, from: rate.effectiveFrom },
    });
    return toView(created);
  });
}
