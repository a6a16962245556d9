/**
 * Advances and recoupable costs (issue 39, record 286): a $10,000 advance recoups from the artist's royalties
 * before anything is payable; what the royalties repay goes back to the label, in the posting's one journal
 * transaction; a cost recoupable at 50% repays half; the unrecouped balance is read back; `ledger:verify` and
 * `audit:balances` hold after every posting.
 */
import { CONTRACT_TEXTS } from '@tunedrop/shared/schemas/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { auditLog, profiles } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { uploadReport } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';

let system: TestSystem;
let adminCookie: string;
let reports = 0;

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
});
afterAll(async () => system?.close());

const balance = async (userId: string) =>
  (await system.db.select({ cents: profiles.balanceCents }).from(profiles).where(eq(profiles.id, userId)))[0]
    ?.cents;

async function postSale(isrc: string, amount: string) {
  reports += 1;
  const body = `${FUGA}\n${reports},2025-10-01,Shop,GB,Physical,${isrc},,1,${amount},USD,Song,A\n`;
  const summary = await readJson(
    await uploadReport(system, adminCookie, `filename=advance-${reports}.csv`, body),
  );
  expect(summary.status).toBe('staged');
  await postImport(system.db, summary.id, { admin: null });
  for (const name of ['ledger:verify', 'audit:balances']) {
    const command = cliCommands[name];
    if (!command) throw new Error(`${name} is not registered`);
    expect(String(await command.run(system, [], {}))).not.toMatch(/differ|mismatch/i);
  }
}

const advances = (id: string) => `/api/admin/contracts/${id}/advances`;
const record = (id: string, json: unknown) =>
  system.request(advances(id), { method: 'POST', cookie: adminCookie, json });

describe('advances and recoupment', () => {
  it('recoups a $10,000 advance from the royalties before anything is payable', async () => {
    const label = await system.signedInUser({ plan: 'basic' });
    const artist = await system.signedInUser({ plan: 'basic' });
    const { releaseId } = await createTestRelease(system, label.userId, {
      status: 'live',
      isrcs: ['QZADV2600001'],
    });
    const created = await system.request('/api/admin/contracts', {
      method: 'POST',
      cookie: adminCookie,
      json: {
        name: 'Advance deal',
        labelEmail: label.email,
        payeeEmail: artist.email,
        startsOn: '2025-01-01',
        releaseIds: [releaseId],
        terms: [{ basis: 'gross', rate: '50' }],
      },
    });
    const contract = await readJson(created);

    const recorded = await record(contract.id, { kind: 'advance', amount: '10000', memo: 'Signing advance' });
    expect(recorded.status).toBe(201);
    expect(await readJson(recorded)).toMatchObject({
      recoupableCents: 1_000_000,
      recoupedCents: 0,
      unrecoupedCents: 1_000_000,
      advances: [
        { kind: 'advance', amountCents: 1_000_000, recoupablePercent: '100', memo: 'Signing advance' },
      ],
    });
    // A video cost recoupable at 50%: $1,000.01 → $500.00 (truncated to the cent).
    expect(
      (await record(contract.id, { kind: 'video', amount: '1000.01', recoupablePercent: '50' })).status,
    ).toBe(201);

    // $12,000 of sales at 50%: $6,000 of royalties, all of it repays the advance; the label gets it back.
    await postSale('QZADV2600001', '12000.00');
    expect(await balance(artist.userId)).toBe(0);
    expect(await balance(label.userId)).toBe(1_200_000);
    expect(
      await readJson(await system.request(advances(contract.id), { cookie: adminCookie })),
    ).toMatchObject({
      recoupableCents: 1_050_000,
      recoupedCents: 600_000,
      unrecoupedCents: 450_000,
    });

    // $10,000 more: $5,000 of royalties, $4,500 repay the rest, $500 is the artist's.
    await postSale('QZADV2600001', '10000.00');
    expect(await balance(artist.userId)).toBe(50_000);
    expect(await balance(label.userId)).toBe(1_200_000 + 450_000 + 500_000);
    expect(
      await readJson(await system.request(advances(contract.id), { cookie: adminCookie })),
    ).toMatchObject({
      recoupedCents: 1_050_000,
      unrecoupedCents: 0,
    });

    // Recouped: royalties are payable in full.
    await postSale('QZADV2600001', '100.00');
    expect(await balance(artist.userId)).toBe(55_000);
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectId, contract.id));
    expect(audits.filter((row) => row.action === 'contracts.advance')).toHaveLength(2);
  });

  it('refuses a wrong amount or an unknown contract', async () => {
    const refused = await record('00000000-0000-4000-8000-000000000000', { kind: 'advance', amount: '5' });
    expect(refused.status).toBe(404);
    const list = await readJson(await system.request('/api/admin/contracts', { cookie: adminCookie }));
    const id = list[0]?.id as string;
    for (const amount of ['0', '-5', '1.234', 'ten']) {
      const response = await record(id, { kind: 'advance', amount });
      expect(response.status).toBe(422);
      expect((await readJson(response)).error.fields).toEqual({ amount: CONTRACT_TEXTS.amountInvalid });
    }
  });
});
