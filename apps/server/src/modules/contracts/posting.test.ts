/**
 * A posting applies the label's contract (issue 39, record 285): each line's first matching term sets its
 * basis and rate, the artist is credited the royalty in whole cents and the label the rest, both legs of
 * the posting's one journal transaction; a line no term matches refuses the posting and changes nothing;
 * a release without a contract posts as before. `ledger:verify` holds after every posting.
 */
import { CONTRACT_TEXTS, type ContractInput } from '@tunedrop/shared/schemas/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { contractRoyalties, profiles, royaltyImports, settings } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { uploadReport } from '../../test-support/royalty-jobs';
import { postImport, postingFigures } from '../royalty-posting';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';

let system: TestSystem;
let adminCookie: string;
let reports = 0;

async function contractSystem(): Promise<{ system: TestSystem; adminCookie: string }> {
  const created = await createTestSystem();
  const people = await staff(created);
  // The operator keeps 10% of a Pro account's gross: net terms apply after it.
  await created.db.insert(settings).values({ key: 'FEE_PERCENT_PRO', value: '10' });
  return { system: created, adminCookie: people.admin.cookie };
}

beforeAll(async () => {
  ({ system, adminCookie } = await contractSystem());
});
afterAll(async () => system?.close());

type Person = { userId: string; email: string };

async function parties(isrcs: string[]): Promise<{ label: Person; artist: Person; releaseId: string }> {
  const label = await system.signedInUser({ plan: 'pro' });
  const artist = await system.signedInUser({ plan: 'basic' });
  const { releaseId } = await createTestRelease(system, label.userId, { status: 'live', isrcs });
  return { label, artist, releaseId };
}

async function saveContract(json: ContractInput, id?: string) {
  const response = await system.request(id ? `/api/admin/contracts/${id}` : '/api/admin/contracts', {
    method: id ? 'PUT' : 'POST',
    cookie: adminCookie,
    json,
  });
  expect(response.status).toBe(id ? 200 : 201);
  return readJson(response);
}

/** Uploads a FUGA statement of `lines` (each given a Sale ID of its own) and returns its import id, staged. */
async function stage(lines: string[]): Promise<string> {
  reports += 1;
  const body = [FUGA, ...lines.map((line, index) => `${reports}-${index + 1},${line}`)].join('\n');
  const summary = await readJson(
    await uploadReport(system, adminCookie, `filename=contracts-${reports}.csv`, `${body}\n`),
  );
  expect(summary.status).toBe('staged');
  return summary.id;
}

const balance = async (userId: string) =>
  (await system.db.select({ cents: profiles.balanceCents }).from(profiles).where(eq(profiles.id, userId)))[0]
    ?.cents;

/** `ledger:verify` and `audit:balances` as the CLI runs them: a difference throws (exit 1). */
async function expectLedgerHolds() {
  for (const name of ['ledger:verify', 'audit:balances']) {
    const command = cliCommands[name];
    if (!command) throw new Error(`${name} is not registered`);
    expect(String(await command.run(system, [], {}))).not.toMatch(/differ/i);
  }
}

describe('a posting under a label contract', () => {
  it('applies a stream term and a download term of one contract to their own lines, exact to the cent', async () => {
    const { label, artist, releaseId } = await parties(['QZCON2600001']);
    await saveContract({
      name: 'Stream and download deal',
      labelEmail: label.email,
      payeeEmail: artist.email,
      startsOn: '2025-01-01',
      releaseIds: [releaseId],
      terms: [
        { channel: 'stream', basis: 'net', rate: '50' },
        { channel: 'download', basis: 'gross', rate: '18' },
      ],
    });
    const importId = await stage([
      '2025-10-01,Spotify,US,Stream,QZCON2600001,,1000,10.00,USD,Song,A',
      '2025-10-01,iTunes,GB,Download,QZCON2600001,,5,5.00,USD,Song,A',
    ]);
    // The confirmation's preview names what the posting then does: both accounts credited.
    const preview = await postingFigures(system.db, importId);
    expect(preview).toMatchObject({ posted: false, creditedCents: 1350, feeCents: 150, artists: 2 });
    const result = await postImport(system.db, importId, { admin: null });
    expect(await postingFigures(system.db, importId)).toEqual({ ...preview, posted: true });
    // Stream: 50% of net (10.00 − 10% fee = 9.00) = 4.50; download: 18% of gross 5.00 = 0.90.
    expect(await balance(artist.userId)).toBe(540);
    // The label: net 13.50 − 5.40 = 8.10; the operator 1.50; nothing left over.
    expect(await balance(label.userId)).toBe(810);
    expect(result).toMatchObject({ postedCents: 1350, feeCents: 150, residue: '0' });
    const applied = await system.db
      .select()
      .from(contractRoyalties)
      .where(eq(contractRoyalties.importId, importId))
      .orderBy(contractRoyalties.termPosition);
    expect(
      applied.map((row) => [
        row.termPosition,
        row.basis,
        row.grossUsd,
        row.basisUsd,
        row.rate,
        row.royaltyUsd,
      ]),
    ).toEqual([
      [1, 'net', '10', '9', '50', '4.5'],
      [2, 'gross', '5', '5', '18', '0.9'],
    ]);
    // Both shares are legs of the report's one journal transaction.
    const legs = await rows<{ subject: string; amount: string }>(
      system.db,
      sql`
        select e.subject, trim_scale(e.amount)::text as amount from journal_entries e
          join journal_transactions t on t.id = e.transaction_id
         where t.reference_id = ${importId} and t.kind = 'royalty_posting' and e.account = 'artist_payable'
         order by e.amount`,
    );
    expect(legs).toEqual([
      { subject: label.userId, amount: '-8.1' },
      { subject: artist.userId, amount: '-5.4' },
    ]);
    await expectLedgerHolds();
  });

  it('takes the first matching term: territory and store before a catch-all, the default when none matches', async () => {
    const { label, artist, releaseId } = await parties(['QZCON2600002']);
    await saveContract({
      name: 'Territory deal',
      labelEmail: label.email,
      payeeEmail: artist.email,
      startsOn: '2025-01-01',
      defaultBasis: 'gross',
      defaultRate: '10',
      releaseIds: [releaseId],
      terms: [
        { territories: ['GB', 'IE'], channel: 'stream', store: 'spotify', basis: 'gross', rate: '30' },
        { channel: 'stream', basis: 'gross', rate: '20' },
        // Never reached for streams: the catch-all above matches first.
        { territories: ['DE'], channel: 'stream', basis: 'gross', rate: '90' },
      ],
    });
    const importId = await stage([
      '2025-10-01,Spotify,GB,Stream,QZCON2600002,,1,1.00,USD,Song,A',
      '2025-10-01,Deezer,GB,Stream,QZCON2600002,,1,1.00,USD,Song,A',
      '2025-10-01,Spotify,DE,Stream,QZCON2600002,,1,1.00,USD,Song,A',
      '2025-10-01,Bandcamp,DE,Sync licence,QZCON2600002,,1,1.00,USD,Song,A',
    ]);
    await postImport(system.db, importId, { admin: null });
    // 0.30 + 0.20 + 0.20 + 0.10 (default) = 0.80.
    expect(await balance(artist.userId)).toBe(80);
    // The label: net 3.60 − 0.80 = 2.80.
    expect(await balance(label.userId)).toBe(280);
    await expectLedgerHolds();
  });

  it('refuses a report with lines no term matches (nothing posted), and posts once a default covers them', async () => {
    const { label, artist, releaseId } = await parties(['QZCON2600003']);
    const contract = await saveContract({
      name: 'Physical only',
      labelEmail: label.email,
      payeeEmail: artist.email,
      startsOn: '2025-01-01',
      releaseIds: [releaseId],
      terms: [{ channel: 'physical', basis: 'gross', rate: '25' }],
    });
    const importId = await stage([
      '2025-10-01,Shop,GB,Physical,QZCON2600003,,10,100.00,USD,Song,A',
      '2025-10-01,Spotify,GB,Stream,QZCON2600003,,1,2.00,USD,Song,A',
      '2025-10-01,Apple Music,GB,Stream,QZCON2600003,,1,2.00,USD,Song,A',
    ]);
    // The confirmation already refuses with the same words, before any money moves.
    await expect(postingFigures(system.db, importId)).rejects.toMatchObject({
      status: 409,
      message: CONTRACT_TEXTS.unmatched(2, 'Physical only'),
    });
    await expect(postImport(system.db, importId, { admin: null })).rejects.toMatchObject({
      status: 409,
      code: 'contract_unmatched',
      message: CONTRACT_TEXTS.unmatched(2, 'Physical only'),
    });
    const [report] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
    expect(report).toMatchObject({ status: 'staged', phase: 'ready', linesPosted: 0 });
    expect(await balance(artist.userId)).toBe(0);
    expect(await balance(label.userId)).toBe(0);
    expect(
      await system.db.select().from(contractRoyalties).where(eq(contractRoyalties.importId, importId)),
    ).toEqual([]);
    await expectLedgerHolds();

    await saveContract(
      {
        name: 'Physical only',
        labelEmail: label.email,
        payeeEmail: artist.email,
        startsOn: '2025-01-01',
        defaultBasis: 'net',
        defaultRate: '15',
        releaseIds: [releaseId],
        terms: [{ channel: 'physical', basis: 'gross', rate: '25' }],
      },
      contract.id,
    );
    await postImport(system.db, importId, { admin: null });
    // $100 of physical sales at 25% = $25.00; streams 15% of net 3.60 = 0.54.
    expect(await balance(artist.userId)).toBe(2554);
    // The label: net 93.60 − 25.54 = 68.06.
    expect(await balance(label.userId)).toBe(6806);
    await expectLedgerHolds();
  });

  it('leaves a release without a contract, and sales before a contract starts, as they were', async () => {
    const { label, artist, releaseId } = await parties(['QZCON2600004']);
    const free = await createTestRelease(system, label.userId, { status: 'live', isrcs: ['QZCON2600005'] });
    await saveContract({
      name: 'From 2026',
      labelEmail: label.email,
      payeeEmail: artist.email,
      startsOn: '2026-01-15',
      releaseIds: [releaseId],
      terms: [{ basis: 'gross', rate: '50' }],
    });
    const importId = await stage([
      '2025-12-01,Spotify,US,Stream,QZCON2600004,,1,4.00,USD,Song,A',
      '2026-01-01,Spotify,US,Stream,QZCON2600004,,1,4.00,USD,Song,A',
      '2026-01-01,Spotify,US,Stream,QZCON2600005,,1,4.00,USD,Song,B',
    ]);
    await postImport(system.db, importId, { admin: null });
    expect(free.releaseId).toBeTruthy();
    // Only the January line of the contracted release: 50% of 4.00.
    expect(await balance(artist.userId)).toBe(200);
    // The label: net 10.80 − 2.00.
    expect(await balance(label.userId)).toBe(880);
    await expectLedgerHolds();
  });
});
