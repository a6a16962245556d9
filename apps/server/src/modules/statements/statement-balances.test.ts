/**
 * Statements a label can send as they are (issue 25, finding 6; record 190): a month's statement runs from the
 * opening balance through gross earnings, fee, split shares, withdrawals and adjustments to the closing
 * balance, and every total is the sum of its rows, in whole cents; a payee's statement lists the shares it
 * received with their release and track; the operator's name and address head it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, balanceUpdatesLog, mailOutbox } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { postImport } from '../royalty-posting';
import { applyBalanceChange } from '../wallet';

const MONTH = new Date().toISOString().slice(0, 7);
const PREVIOUS = (() => {
  const date = new Date();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.toISOString().slice(0, 7);
})();

let system: TestSystem;
let admin: { cookie: string };
type Person = { userId: string; cookie: string; email: string };
let owner: Person;
let collaborator: Person;

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
// Gross 12.3456 + 9.1851 − 0.50 = 21.0307 (credited 21.03); 30% to the collaborator: 11.8456 × 0.3 +
// 9.1851 × 0.3 = 6.30921 → $6.30; the owner keeps $14.73.
const LINES = [
  '2026-02-10\t2025-10\tSpotify\tA\tT\tQZSTM2600001\t\t100\t100\tSong\tUS\t0\t12.3456',
  '2026-02-10\t2025-11\tApple Music\tA\tT\tQZSTM2600002\t\t50\t100\tSong\tGB\t0\t9.1851',
  '2026-02-10\t2025-10\tSpotify\tA\tT\tQZSTM2600001\t\t-4\t100\tSong\tUS\t0\t-0.50',
];

beforeAll(async () => {
  system = await createTestSystem();
  const people = await staff(system);
  admin = people.admin;
  owner = await system.signedInUser({ plan: 'basic', email: 'owner.statement@example.com' });
  collaborator = await system.signedInUser({
    subscription: 'inactive',
    email: 'collab.statement@example.com',
  });
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    title: 'Statement Songs',
    releaseDate: '2020-01-01',
    trackCount: 2,
    isrcs: ['QZSTM2600001', 'QZSTM2600002'],
  });
  const split = await system.request(`/api/releases/${release.releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: { trackId: null, ownerPercent: '70', payees: [{ email: collaborator.email, percent: '30' }] },
  });
  expect(split.status).toBe(200);
  const [mail] = await system.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, collaborator.email))
    .orderBy(desc(mailOutbox.createdAt));
  const token = /\/splits\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '')?.[1];
  const accepted = await system.request(`/api/split-invitations/${token}/accept`, {
    method: 'POST',
    cookie: collaborator.cookie,
  });
  expect(accepted.status).toBe(200);

  // $100.00 funded last month: this month's opening balance (dated there in the log and the journal).
  const monthStart = new Date(`${MONTH}-01T00:00:00Z`);
  await fundUser(system, owner.userId, 10_000, new Date(monthStart.getTime() - 2 * 24 * 3600 * 1000));

  const upload = await system.request('/api/admin/royalties/imports?filename=statement.tsv', {
    method: 'POST',
    body: `${[HEADER, ...LINES].join('\n')}\n`,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: admin.cookie,
  });
  const summary = await readJson(await afterJobs(system, upload, admin.cookie));
  expect(summary.status).toBe('staged');
  await postImport(system.db, summary.id, { admin: null });

  // A $50.00 withdrawal and a $1.25 adjustment this month.
  await savePaypal(system, owner.userId);
  const withdrawal = await system.request('/api/wallet/withdrawals', {
    method: 'POST',
    cookie: owner.cookie,
    json: { amount: '50' },
  });
  expect(withdrawal.status).toBeLessThan(300);
  await applyBalanceChange(system.db, {
    userId: owner.userId,
    balanceDeltaCents: 125,
    updateType: 'manual',
    notes: 'Manual balance update via admin panel',
  });
});
afterAll(async () => {
  await system.close();
});

const summaryOf = async (cookie: string, period = MONTH) => {
  const response = await system.request(`/api/royalties/statements/${period}/summary`, { cookie });
  expect(response.status).toBe(200);
  return readJson(response);
};
const sum = (rows: { cents: number }[]) => rows.reduce((total, row) => total + row.cents, 0);

function pdfText(bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-'));
  try {
    const file = path.join(dir, 'statement.pdf');
    fs.writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("an owner's statement", () => {
  it('runs from the opening to the closing balance, every section adding up', async () => {
    const statement = await summaryOf(owner.cookie);
    expect(statement).toMatchObject({
      period: MONTH,
      openingCents: 10_000,
      salesPeriods: ['2025-10', '2025-11'],
      earnings: { grossCents: 2103, grossExact: '21.0307', lines: 3, units: '146' },
      feeCents: 0,
      netEarningsCents: 1473,
      closingCents: 10_000 + 1473 - 5000 + 125,
    });
    for (const section of ['byStore', 'byCountry', 'byTrack'] as const) {
      expect(sum(statement.earnings[section])).toBe(2103);
    }
    expect(
      statement.earnings.byStore.map((row: { label: string; cents: number }) => [row.label, row.cents]),
    ).toEqual([
      ['Spotify', 1185],
      ['Apple Music', 918],
    ]);
    expect(statement.shares).toMatchObject([
      { direction: 'to', party: collaborator.email, releaseTitle: 'Statement Songs', percent: '30.00' },
      { direction: 'to', party: collaborator.email, releaseTitle: 'Statement Songs', percent: '30.00' },
    ]);
    expect(sum(statement.shares)).toBe(-630);
    expect(statement.withdrawals).toMatchObject([{ cents: -5000 }]);
    expect(statement.adjustments).toMatchObject([
      { cents: 125, description: 'Balance adjustment by the operator' },
    ]);
    // opening + earnings − fee − withdrawals + adjustments = closing
    expect(
      statement.openingCents +
        statement.earnings.grossCents +
        statement.feeCents +
        sum(statement.shares) +
        sum(statement.otherEarnings) +
        sum(statement.withdrawals) +
        sum(statement.adjustments),
    ).toBe(statement.closingCents);
    const wallet = await readJson(await system.request('/api/wallet', { cookie: owner.cookie }));
    expect(wallet.balanceCents).toBe(statement.closingCents);
  });

  it('lists each month with its balances, the earlier closing the later opening', async () => {
    const list = await readJson(await system.request('/api/royalties/statements', { cookie: owner.cookie }));
    expect(list.items).toEqual([
      { period: MONTH, openingCents: 10_000, closingCents: 6598, amountCents: 1473, lines: 3 },
      { period: PREVIOUS, openingCents: 0, closingCents: 10_000, amountCents: 0, lines: 0 },
    ]);
    const previous = await summaryOf(owner.cookie, PREVIOUS);
    expect(previous).toMatchObject({ openingCents: 0, closingCents: 10_000, earnings: { lines: 0 } });
    expect(sum(previous.adjustments)).toBe(10_000);
  });

  it('writes a CSV whose total is the sum of its rows, in whole cents with the exact figure beside', async () => {
    const response = await system.request(`/api/royalties/statements/${MONTH}.csv`, { cookie: owner.cookie });
    const records: string[][] = parse(await response.text());
    const header = records[0] as string[];
    const cents = header.indexOf('Amount (USD cents)');
    const exact = header.indexOf('Exact amount (USD)');
    const opening = records.findIndex((record) => record[0] === 'Opening balance');
    const totalAt = records.findIndex((record) => record[0] === 'Total');
    const rows = records.slice(opening + 1, totalAt);
    for (const row of [...rows, records[opening] as string[], records[totalAt] as string[]]) {
      expect(row[cents]).toMatch(/^-?\d+$/);
    }
    const total = Number(records[totalAt]?.[cents]);
    expect(total).toBe(rows.reduce((sum, row) => sum + Number(row[cents]), 0));
    const closing = records.find((record) => record[0] === 'Closing balance');
    expect(Number(records[opening]?.[cents]) + total).toBe(Number(closing?.[cents]));
    expect(total).toBe(1473 - 5000 + 125);
    const gross = rows.filter((row) => row[0] === 'Gross earnings');
    expect(gross.reduce((sum, row) => sum + Number(row[cents]), 0)).toBe(2103);
    expect(gross.map((row) => row[exact]).sort()).toEqual(['-0.5', '12.3456', '9.1851']);
    const shares = rows.filter((row) => row[0] === 'Split share paid');
    expect(shares.map((row) => row[exact]).sort()).toEqual(['-2.75553', '-3.55368']);
    expect(shares.reduce((sum, row) => sum + Number(row[cents]), 0)).toBe(-630);
  });
});

describe("a payee's statement", () => {
  it('lists the shares received with their release and track, and balances', async () => {
    const statement = await summaryOf(collaborator.cookie);
    expect(statement).toMatchObject({ openingCents: 0, netEarningsCents: 630, closingCents: 630 });
    expect(
      statement.shares.map(
        (row: { direction: string; party: string; trackTitle: string; percent: string }) => [
          row.direction,
          row.party,
          row.trackTitle,
          row.percent,
        ],
      ),
    ).toEqual([
      ['from', owner.email, 'Track 1', '30.00'],
      ['from', owner.email, 'Track 2', '30.00'],
    ]);
    expect(sum(statement.shares)).toBe(630);
    // The shares by the store, country and track of the owner's sales they came from, adding up to them.
    const received = statement.sharesReceived;
    expect(received.byStore).toEqual([
      { label: 'Spotify', units: '', cents: 355, exact: '3.55368' },
      { label: 'Apple Music', units: '', cents: 275, exact: '2.75553' },
    ]);
    expect(received.byCountry.map((row: { label: string; cents: number }) => [row.label, row.cents])).toEqual(
      [
        ['US', 355],
        ['GB', 275],
      ],
    );
    expect(received.byTrack.map((row: { label: string; cents: number }) => [row.label, row.cents])).toEqual([
      ['Track 1 (QZSTM2600001)', 355],
      ['Track 2 (QZSTM2600002)', 275],
    ]);
    const pdf = await system.request(`/api/royalties/statements/${MONTH}.pdf`, {
      cookie: collaborator.cookie,
    });
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toMatch(
      /From owner\.statement@example\.com · Statement Songs \/ Track 1 · 30\.00%\s+\$3\.55/,
    );
    expect(text).toMatch(/Split shares received\s+\$6\.30/);
    expect(text).toContain('Split shares received by store');
    expect(text).toMatch(/Apple Music\s+\$2\.75/);
    expect(text).toContain('Split shares received by country');
    expect(text).toMatch(/Closing balance\s+\$6\.30/);
    expect(text).not.toContain('0 lines');
  });
});

describe('the issuer', () => {
  it("heads the statements with the operator's legal name and address once set", async () => {
    const before = pdfText(
      new Uint8Array(
        await (
          await system.request(`/api/royalties/statements/${MONTH}.pdf`, { cookie: owner.cookie })
        ).arrayBuffer(),
      ),
    );
    expect(before.trim().split('\n')[0]?.trim()).toBe('Tunedrop');
    const refused = await system.request('/api/admin/royalties/statement-issuer', {
      method: 'PUT',
      cookie: admin.cookie,
      json: { legalName: '  ', address: '' },
    });
    expect(refused.status).toBe(422);
    const saved = await system.request('/api/admin/royalties/statement-issuer', {
      method: 'PUT',
      cookie: admin.cookie,
      json: { legalName: 'Northern Lights Music Ltd', address: '12 Harbour Road\r\n\r\nLeith EH6 6QA' },
    });
    expect(await readJson(saved)).toEqual({
      legalName: 'Northern Lights Music Ltd',
      address: '12 Harbour Road\nLeith EH6 6QA',
      source: 'settings',
    });
    // The save is audited with what changed (record 191).
    const [audit] = await system.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
    expect(audit).toMatchObject({
      subjectLabel: 'Statement issuer',
      before: { STATEMENT_ISSUER_NAME: null, STATEMENT_ISSUER_ADDRESS: null },
      after: {
        STATEMENT_ISSUER_NAME: 'Northern Lights Music Ltd',
        STATEMENT_ISSUER_ADDRESS: '12 Harbour Road\nLeith EH6 6QA',
      },
    });
    const forbidden = await system.request('/api/admin/royalties/statement-issuer', { cookie: owner.cookie });
    expect(forbidden.status).toBe(403);
    const pdf = await system.request(`/api/royalties/statements/${MONTH}.pdf`, { cookie: owner.cookie });
    const lines = pdfText(new Uint8Array(await pdf.arrayBuffer()))
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines.slice(0, 4)).toEqual([
      'Northern Lights Music Ltd',
      '12 Harbour Road',
      'Leith EH6 6QA',
      'Royalty statement',
    ]);
    const csv = await (
      await system.request(`/api/royalties/statements/${MONTH}.csv`, { cookie: owner.cookie })
    ).text();
    expect(csv).toContain('issued by Northern Lights Music Ltd, 12 Harbour Road, Leith EH6 6QA');
  });
});

// It tampers with the profile's cached balance and the balance history, which the journal outranks, and puts
// both back, so the other cases read them as seeded whichever runs first.
describe('the balances come from the journal (issue 36, record 259)', () => {
  it('keeps the opening and closing balances when the cached balance and the history are tampered with', async () => {
    await system.db.execute(
      sql`update profiles set balance_cents = balance_cents + 777 where id = ${owner.userId}`,
    );
    // The $1.25 adjustment's history row now says $4.25: the books still say $1.25.
    await system.db
      .update(balanceUpdatesLog)
      .set({ oldBalanceCents: sql`${balanceUpdatesLog.oldBalanceCents} - 300` })
      .where(and(eq(balanceUpdatesLog.userId, owner.userId), eq(balanceUpdatesLog.updateType, 'manual')));

    try {
      const statement = await summaryOf(owner.cookie);
      expect(statement).toMatchObject({ openingCents: 10_000, closingCents: 6598 });
      // The history's extra $3.00 is shown against a difference row, so the statement still adds up.
      expect(statement.adjustments).toEqual([
        { date: expect.any(String), description: 'Balance adjustment by the operator', cents: 425 },
        {
          date: `${MONTH}-01`,
          description: 'Balance change on the books not in the balance history',
          cents: -300,
        },
      ]);
      expect(
        statement.openingCents +
          statement.earnings.grossCents +
          statement.feeCents +
          sum(statement.shares) +
          sum(statement.otherEarnings) +
          sum(statement.withdrawals) +
          sum(statement.adjustments),
      ).toBe(statement.closingCents);
      const list = await readJson(
        await system.request('/api/royalties/statements', { cookie: owner.cookie }),
      );
      expect(list.items).toEqual([
        { period: MONTH, openingCents: 10_000, closingCents: 6598, amountCents: 1473, lines: 3 },
        { period: PREVIOUS, openingCents: 0, closingCents: 10_000, amountCents: 0, lines: 0 },
      ]);
    } finally {
      await system.db.execute(
        sql`update profiles set balance_cents = balance_cents - 777 where id = ${owner.userId}`,
      );
      await system.db
        .update(balanceUpdatesLog)
        .set({ oldBalanceCents: sql`${balanceUpdatesLog.oldBalanceCents} + 300` })
        .where(and(eq(balanceUpdatesLog.userId, owner.userId), eq(balanceUpdatesLog.updateType, 'manual')));
    }
  });
});
