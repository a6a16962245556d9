/**
 * Contract reserves (issue 39, record 287): a term's reserve is held back at posting onto `reserve_held`
 * (per contract), never on returns, and released in parts on the following statement months; the payee's
 * statement shows what was held, released and is still held. `ledger:verify` and `audit:balances` hold
 * after every step. The example to the cent: £100 of physical sales at 25% with a 20% reserve
 * released 50/50 gives 20.00 now, 2.50 next month and 2.50 the month after (the journal's currency is
 * USD; the figures are the issue's).
 */
import {
  CONTRACT_TEXTS,
  type ContractInput,
  type ContractTermInput,
} from '@tunedrop/shared/schemas/contracts';
import type { RoyaltyStatement } from '@tunedrop/shared/schemas/royalty-statements';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { contractReserveReleases, contractReserves, profiles, settings } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { uploadReport } from '../../test-support/royalty-jobs';
import { postImport, postingFigures } from '../royalty-posting';
import { releaseDueReserves } from './reserves';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';

let system: TestSystem;
let adminCookie: string;
let reports = 0;

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
  // The operator keeps 10% of a Pro account's gross (the label's).
  await system.db.insert(settings).values({ key: 'FEE_PERCENT_PRO', value: '10' });
});
afterAll(async () => system?.close());

type Person = { userId: string; email: string; cookie: string };

async function physicalDeal(isrc: string, term: Partial<ContractTermInput> = {}) {
  const label = (await system.signedInUser({ plan: 'pro' })) as Person;
  const artist = (await system.signedInUser({ plan: 'basic' })) as Person;
  const { releaseId } = await createTestRelease(system, label.userId, { status: 'live', isrcs: [isrc] });
  const response = await system.request('/api/admin/contracts', {
    method: 'POST',
    cookie: adminCookie,
    json: {
      name: `Physical deal ${isrc}`,
      labelEmail: label.email,
      payeeEmail: artist.email,
      startsOn: '2025-01-01',
      releaseIds: [releaseId],
      terms: [
        {
          channel: 'physical',
          basis: 'gross',
          rate: '25',
          reservePercent: '20',
          reserveSchedule: '50/50',
          ...term,
        },
      ],
    } satisfies ContractInput,
  });
  expect(response.status).toBe(201);
  const contract = await readJson(response);
  return { label, artist, contractId: contract.id as string, contract };
}

async function stage(lines: string[]): Promise<string> {
  reports += 1;
  const body = [FUGA, ...lines.map((line, index) => `${reports}-${index + 1},${line}`)].join('\n');
  const summary = await readJson(
    await uploadReport(system, adminCookie, `filename=reserves-${reports}.csv`, `${body}\n`),
  );
  expect(summary.status).toBe('staged');
  return summary.id;
}

const balance = async (userId: string) =>
  (await system.db.select({ cents: profiles.balanceCents }).from(profiles).where(eq(profiles.id, userId)))[0]
    ?.cents;

/** The journal's reserve_held balance of a contract, in cents (credit-positive). */
async function reserveHeld(contractId: string): Promise<number> {
  const [row] = await rows<{ cents: string }>(
    system.db,
    sql`select coalesce(-100 * sum(amount), 0)::text as cents from journal_entries
         where account = 'reserve_held' and subject = ${contractId}`,
  );
  return Number(row?.cents ?? 0);
}

async function expectLedgerHolds() {
  for (const name of ['ledger:verify', 'audit:balances']) {
    const command = cliCommands[name];
    if (!command) throw new Error(`${name} is not registered`);
    expect(String(await command.run(system, [], {}))).not.toMatch(/differ/i);
  }
}

/** The first instant (UTC) of the month `after` months from now, plus a day. */
const monthsFromNow = (after: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + after, 2));
};
const periodOf = (date: Date) => date.toISOString().slice(0, 7);

async function statement(person: Person, period: string): Promise<RoyaltyStatement> {
  const response = await system.request(`/api/royalties/statements/${period}/summary`, {
    cookie: person.cookie,
  });
  expect(response.status).toBe(200);
  return readJson(response);
}

describe('contract reserves', () => {
  it('holds 20% of £100 physical at 25% and releases it 50/50: 20.00 now, 2.50 next month, 2.50 the month after', async () => {
    const { label, artist, contractId, contract } = await physicalDeal('QZRES2600001');
    expect(contract.terms[0]).toMatchObject({ reservePercent: '20', reserveSchedule: ['50', '50'] });
    const importId = await stage(['2025-10-01,Shop,GB,Physical,QZRES2600001,,10,100.00,USD,Song,A']);
    const preview = await postingFigures(system.db, importId);
    expect(preview).toMatchObject({ creditedCents: 9000 - 500, reservedCents: 500, feeCents: 1000 });
    await postImport(system.db, importId, { admin: null });
    expect(await postingFigures(system.db, importId)).toEqual({ ...preview, posted: true });

    // Now: the 25.00 royalty less the 5.00 reserve; the label keeps 90.00 − 25.00.
    expect(await balance(artist.userId)).toBe(2000);
    expect(await balance(label.userId)).toBe(6500);
    expect(await reserveHeld(contractId)).toBe(500);
    const [reserve] = await system.db
      .select()
      .from(contractReserves)
      .where(eq(contractReserves.importId, importId));
    expect(reserve).toMatchObject({
      termPosition: 1,
      salesRoyaltyUsd: '25',
      percent: '20',
      reserveUsd: '5',
      heldCents: 500,
    });
    const parts = await system.db
      .select()
      .from(contractReserveReleases)
      .where(eq(contractReserveReleases.reserveId, reserve?.id ?? ''))
      .orderBy(contractReserveReleases.part);
    expect(parts.map((part) => [part.part, part.dueMonth, part.cents])).toEqual([
      [1, `${periodOf(monthsFromNow(1))}-01`, 250],
      [2, `${periodOf(monthsFromNow(2))}-01`, 250],
    ]);
    await expectLedgerHolds();

    // Nothing is due this month.
    expect((await releaseDueReserves(system.db)).cents).toBe(0);
    expect(await balance(artist.userId)).toBe(2000);

    // Next month: 2.50; a second run that month releases nothing more.
    const next = monthsFromNow(1);
    expect(await releaseDueReserves(system.db, next)).toMatchObject({ parts: 1, cents: 250 });
    expect((await releaseDueReserves(system.db, next)).cents).toBe(0);
    expect(await balance(artist.userId)).toBe(2250);
    expect(await reserveHeld(contractId)).toBe(250);
    await expectLedgerHolds();

    // The month after: the last 2.50; then nothing is left.
    const after = monthsFromNow(2);
    expect(await releaseDueReserves(system.db, after)).toMatchObject({ parts: 1, cents: 250 });
    expect(await balance(artist.userId)).toBe(2500);
    expect(await reserveHeld(contractId)).toBe(0);
    expect((await releaseDueReserves(system.db, monthsFromNow(3))).cents).toBe(0);
    // The command the daily job's run repeats by hand: nothing is left to release this month.
    expect(await cliCommands['contracts:release-reserves']?.run(system, [], {})).toBe(
      'Released $0.00 in 0 reserve part(s) of 0 contract(s).',
    );
    await expectLedgerHolds();

    // The payee's statements: held, released and still held each month; each still adds up.
    const now = await statement(artist, periodOf(new Date()));
    expect(now.reserves).toEqual({ heldCents: 500, releasedCents: 0, balanceCents: 500 });
    expect(now.closingCents).toBe(2000);
    const second = await statement(artist, periodOf(next));
    expect(second.reserves).toEqual({ heldCents: 0, releasedCents: 250, balanceCents: 250 });
    expect(second).toMatchObject({ openingCents: 2000, closingCents: 2250, netEarningsCents: 250 });
    expect(second.otherEarnings).toEqual([
      expect.objectContaining({
        description: 'Reserve released: contract “Physical deal QZRES2600001”',
        cents: 250,
      }),
    ]);
    const third = await statement(artist, periodOf(after));
    expect(third.reserves).toEqual({ heldCents: 0, releasedCents: 250, balanceCents: 0 });
    expect(third).toMatchObject({ openingCents: 2250, closingCents: 2500 });
    // The label's statement has no reserves: they are the payee's.
    expect((await statement(label, periodOf(new Date()))).reserves).toBeUndefined();
  });

  it('holds nothing on returns: 20% of the sales only, and a report of returns alone holds nothing', async () => {
    const { artist, contractId } = await physicalDeal('QZRES2600002');
    const importId = await stage([
      '2025-10-01,Shop,GB,Physical,QZRES2600002,,10,100.00,USD,Song,A',
      '2025-10-01,Shop,GB,Physical,QZRES2600002,,-4,-40.00,USD,Song,A',
    ]);
    await postImport(system.db, importId, { admin: null });
    // Royalty 25.00 − 10.00 = 15.00; the reserve is 20% of the 25.00 of sales: 5.00.
    expect(await balance(artist.userId)).toBe(1000);
    expect(await reserveHeld(contractId)).toBe(500);
    await expectLedgerHolds();

    const returns = await stage(['2025-11-01,Shop,GB,Physical,QZRES2600002,,-2,-20.00,USD,Song,A']);
    await postImport(system.db, returns, { admin: null });
    // 25% of −20.00 = −5.00 from the balance; the reserve is untouched and no reserve row is written.
    expect(await balance(artist.userId)).toBe(500);
    expect(await reserveHeld(contractId)).toBe(500);
    expect(
      await system.db.select().from(contractReserves).where(eq(contractReserves.importId, returns)),
    ).toEqual([]);
    await expectLedgerHolds();
  });

  it('splits an odd cent by the schedule so the parts add up to what was held', async () => {
    const { artist, contractId } = await physicalDeal('QZRES2600003', {
      reservePercent: '10',
      reserveSchedule: '33.3333/33.3333/33.3334',
    });
    // 25% of 13.33 = 3.3325; 10% of it = 0.33325 → 33 cents held, released 10 + 11 + 12.
    const importId = await stage(['2025-10-01,Shop,GB,Physical,QZRES2600003,,1,13.33,USD,Song,A']);
    await postImport(system.db, importId, { admin: null });
    expect(await balance(artist.userId)).toBe(333 - 33);
    const parts = await rows<{ cents: string }>(
      system.db,
      sql`select x.cents::text as cents from contract_reserve_releases x
            join contract_reserves r on r.id = x.reserve_id where r.contract_id = ${contractId} order by x.part`,
    );
    expect(parts.map((part) => Number(part.cents))).toEqual([10, 11, 12]);
    await releaseDueReserves(system.db, monthsFromNow(3));
    expect(await balance(artist.userId)).toBe(333);
    expect(await reserveHeld(contractId)).toBe(0);
    await expectLedgerHolds();
  });

  it('refuses a gross rate above what the operator’s fee leaves, by name, and posts nothing', async () => {
    const { label, artist } = await physicalDeal('QZRES2600004', {
      rate: '95',
      reservePercent: '',
      reserveSchedule: '',
    });
    const importId = await stage(['2025-10-01,Shop,GB,Physical,QZRES2600004,,1,10.00,USD,Song,A']);
    const refusal = {
      status: 409,
      code: 'contract_rate_above_net',
      message: CONTRACT_TEXTS.rateAboveNet('Physical deal QZRES2600004', '95', '10', '90'),
    };
    await expect(postingFigures(system.db, importId)).rejects.toMatchObject(refusal);
    await expect(postImport(system.db, importId, { admin: null })).rejects.toMatchObject(refusal);
    expect(await balance(artist.userId)).toBe(0);
    expect(await balance(label.userId)).toBe(0);
    await expectLedgerHolds();
  });

  it('refuses a reserve without a schedule, a schedule not adding up to 100, and a schedule without a reserve', async () => {
    const { contract } = await physicalDeal('QZRES2600005', { reservePercent: '', reserveSchedule: '' });
    const save = (term: Partial<ContractTermInput>) =>
      system.request(`/api/admin/contracts/${contract.id}`, {
        method: 'PUT',
        cookie: adminCookie,
        json: {
          name: contract.name,
          labelEmail: contract.label.email,
          payeeEmail: contract.payee.email,
          startsOn: '2025-01-01',
          releaseIds: contract.releases.map((release: { id: string }) => release.id),
          terms: [{ channel: 'physical', basis: 'gross', rate: '25', ...term }],
        } satisfies ContractInput,
      });
    for (const [term, message] of [
      [{ reservePercent: '20' }, CONTRACT_TEXTS.reserveScheduleMissing],
      [{ reservePercent: '20', reserveSchedule: '60/30' }, CONTRACT_TEXTS.reserveScheduleInvalid],
      [{ reserveSchedule: '50/50' }, CONTRACT_TEXTS.reserveScheduleWithoutReserve],
    ] as const) {
      const response = await save(term);
      expect(response.status).toBe(422);
      expect(JSON.stringify(await readJson(response))).toContain(message);
    }
  });
});
