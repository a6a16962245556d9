/**
 * Every money path onto the journal (issue 36), then `ledger:verify`: a report posted with a 70/30 split
 * whose payee has not accepted (a held share), recoupment of an expense, a cumulative re-export, held
 * shares returned after a withdrawn invitation and released on an acceptance, suspense assigned and
 * released, a bulk balance CSV, a single edit, balance:set, withdrawals requested, cancelled, rejected and
 * approved (paid). The journal balances, every cached figure equals it, and the figures shown (finance
 * overview, balances) are the journal's sums; a cent changed behind its back is found.
 */
import { decimalToCents } from '@tunedrop/shared/money';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { mailOutbox, profiles } from '../../db/schema';
import { CliError } from '../../lib/cli-error';
import { rows, run } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { savePaypal } from '../../test-support/wallet-fixtures';
import { approveWithdrawal, rejectWithdrawal } from '../admin-withdrawals';
import { cancelWithdrawal, requestWithdrawal } from '../wallet';
import { accountTotals, userBalanceCents } from '.';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const sale = (store: string, isrc: string, amount: string) =>
  `2025-11-05\t2025-10\t${store}\tArtist\tSong\t${isrc}\t\t1\t100\tSong\tUS\t0\t${amount}`;
const centsOf = (usd: string) => Number(decimalToCents(usd));
const statement = (...lines: string[]) => `${[HEADER, ...lines].join('\r\n')}\r\n`;

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let owner: { userId: string; email: string; cookie: string };
let firstRelease: string;
let secondRelease: string;
let trackA: string;

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

async function upload(body: string, filename: string) {
  const response = await system.request(`/api/admin/royalties/imports?filename=${filename}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  expect(response.status).toBe(202);
  return readJson(await afterJobs(system, response, people.admin.cookie));
}

async function post(importId: string) {
  const response = await afterJobs(
    system,
    await asAdmin(`/api/admin/royalties/imports/${importId}/post`, { method: 'POST' }),
    people.admin.cookie,
  );
  return readJson(response);
}

async function payeeId(releaseId: string, email: string): Promise<string> {
  const splits = await readJson(
    await system.request(`/api/releases/${releaseId}/splits`, { cookie: owner.cookie }),
  );
  const payee = splits.payees.find((p: { email: string }) => p.email === email);
  return payee.id;
}

async function invitationToken(email: string): Promise<string> {
  const mails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
  for (const mail of mails) {
    const match = /\/splits\/invitations\/([A-Za-z0-9_-]+)/.exec(mail.textBody ?? '');
    if (match?.[1]) return match[1];
  }
  throw new Error(`no invitation mail for ${email}`);
}

async function verify(): Promise<{ ok: boolean; text: string }> {
  const command = cliCommands['ledger:verify'];
  if (!command) throw new Error('ledger:verify is not registered');
  try {
    return { ok: true, text: String(await command.run(system, [], {})) };
  } catch (error) {
    if (error instanceof CliError) return { ok: false, text: error.message };
    throw error;
  }
}

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  const fees = await asAdmin('/api/admin/finance/fees', {
    method: 'PUT',
    json: { basic: '12.5', pro: '0', payee: '0' },
  });
  expect(fees.status).toBe(200);
  owner = await system.signedInUser({ plan: 'basic', email: 'journal.owner@example.com' });
  const first = await createTestRelease(system, owner.userId, {
    status: 'live',
    trackCount: 1,
    isrcs: ['QZJRN2500001'],
    releaseDate: '2025-01-01',
  });
  firstRelease = first.releaseId;
  trackA = first.trackIds[0] ?? '';
  const second = await createTestRelease(system, owner.userId, {
    status: 'live',
    trackCount: 1,
    isrcs: ['QZJRN2500002'],
    releaseDate: '2025-01-01',
  });
  secondRelease = second.releaseId;
  for (const [releaseId, ownerPercent, email, percent] of [
    [firstRelease, '70', 'journal.payee@example.com', '30'],
    [secondRelease, '80', 'journal.gone@example.com', '20'],
  ] as const) {
    const saved = await system.request(`/api/releases/${releaseId}/splits`, {
      method: 'PUT',
      cookie: owner.cookie,
      json: { trackId: null, ownerPercent, payees: [{ email, percent }] },
    });
    expect(saved.status).toBe(200);
  }
  const expense = await system.request(`/api/releases/${firstRelease}/expenses`, {
    method: 'POST',
    cookie: owner.cookie,
    json: { amount: '2.00', description: 'Mastering', spentOn: '2025-01-20' },
  });
  expect(expense.status).toBeLessThan(300);
});
afterAll(async () => {
  await system.close();
});

describe('every money path on the journal', () => {
  it('posts a report, its cumulative re-export, suspense and split moves, and ledger:verify holds', async () => {
    const october = [
      sale('Spotify', 'QZJRN2500001', '21.53'),
      sale('Spotify', 'QZJRN2500002', '10.00'),
      sale('Spotify', 'QZJRNUNKNOWN1', '4.1234'),
      sale('Deezer', 'QZJRNUNKNOWN2', '2.50'),
    ];
    const first = await upload(statement(...october), 'journal-october.tsv');
    expect(first.status).toBe('staged');
    expect(await post(first.id)).toMatchObject({ status: 'posted' });
    expect(await verify()).toMatchObject({ ok: true });

    // The second release's payee is withdrawn: their held share goes back with the next posting.
    const gone = await payeeId(secondRelease, 'journal.gone@example.com');
    const withdrawn = await system.request(`/api/releases/${secondRelease}/splits/payees/${gone}/withdraw`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(withdrawn.status).toBe(200);
    const again = await upload(
      statement(...october, sale('Tidal', 'QZJRN2500001', '1.00')),
      'journal-reexport.tsv',
    );
    expect(again.matched).toEqual({ lines: 1, amount: '1' });
    expect(await post(again.id)).toMatchObject({ status: 'posted' });

    const assigned = await asAdmin('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      json: { code: 'QZJRNUNKNOWN1', kind: 'isrc', trackId: trackA },
    });
    expect(assigned.status).toBe(200);
    const released = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: 'QZJRNUNKNOWN2', kind: 'isrc', reason: 'Unclaimed after a year' },
    });
    expect(released.status).toBe(200);

    const payee = await system.signedInUser({ email: 'journal.payee@example.com', subscription: 'inactive' });
    const accepted = await system.request(
      `/api/split-invitations/${await invitationToken('journal.payee@example.com')}/accept`,
      { method: 'POST', cookie: payee.cookie },
    );
    expect(accepted.status).toBe(200);
    expect((await readJson(accepted)).releasedCents).toBeGreaterThan(0);

    const result = await verify();
    expect(result.text).toContain('every check holds');
    expect(result.ok).toBe(true);
    // The journal's sums are the figures the finance overview shows.
    const overview = await readJson(await asAdmin('/api/admin/finance'));
    const totals = await accountTotals(system.db);
    expect(centsOf(totals.artist_payable)).toBe(overview.liability.balancesCents);
    expect(centsOf(totals.payee_held)).toBe(overview.liability.heldSharesCents);
    expect(centsOf(totals.fee_income)).toBe(overview.operatorRevenue.feeCents);
    expect(totals.suspense).toBe('0');
    expect(totals.operator_revenue).toBe('2.5');
    expect(await userBalanceCents(system.db, owner.userId)).toEqual({
      balanceCents: (await profileOf(owner.userId)).balanceCents,
      pendingBalanceCents: 0,
    });
  });

  it('journals manual, bulk and CLI balance changes and withdrawals to their end', async () => {
    const a = await system.signedInUser({ plan: 'pro', email: 'journal.bulk.a@example.com' });
    const b = await system.signedInUser({ plan: 'pro', email: 'journal.bulk.b@example.com' });
    const apply = await asAdmin('/api/admin/balances/apply', {
      method: 'POST',
      json: {
        rows: [
          { line: 2, userId: a.userId, expectedOldBalanceCents: 0, newBalanceCents: 20_000 },
          { line: 3, userId: b.userId, expectedOldBalanceCents: 0, newBalanceCents: 15_050 },
        ],
      },
    });
    expect(apply.status).toBe(200);
    const single = await asAdmin(`/api/admin/balances/users/${b.userId}`, {
      method: 'PUT',
      json: { balanceCents: 12_000, totalEarningsCents: 15_050, pendingBalanceCents: 0 },
    });
    expect(single.status).toBe(200);
    expect(await cliCommands['balance:set']?.run(system, [a.email, '180.25'], {})).toContain('-> $180.25');

    await savePaypal(system, a.userId);
    await savePaypal(system, b.userId);
    const admin = { id: people.admin.userId, email: people.admin.email };
    const paid = await requestWithdrawal(system.db, a.userId, 100);
    await approveWithdrawal(system.db, admin, paid.id);
    const cancelled = await requestWithdrawal(system.db, a.userId, 50);
    await cancelWithdrawal(system.db, a.userId, cancelled.id);
    const rejected = await requestWithdrawal(system.db, b.userId, 60);
    await rejectWithdrawal(system.db, admin, rejected.id, 'Details do not match');
    const waiting = await requestWithdrawal(system.db, b.userId, 30);
    expect(waiting.pendingBalanceCents).toBe(3000);

    const result = await verify();
    expect(result.text).toContain('every check holds');
    const totals = await accountTotals(system.db);
    expect(totals.withdrawals_paid).toBe('100');
    expect(totals.withdrawals_payable).toBe('30');
    expect(await userBalanceCents(system.db, a.userId)).toEqual({
      balanceCents: 8025,
      pendingBalanceCents: 0,
    });
    expect(await userBalanceCents(system.db, b.userId)).toEqual({
      balanceCents: 9000,
      pendingBalanceCents: 3000,
    });
    const kinds = await rows<{ kind: string }>(
      system.db,
      sql`select distinct kind from journal_transactions order by kind`,
    );
    expect(kinds.map((row) => row.kind)).toEqual([
      'bulk_adjustment',
      'cli_adjustment',
      'manual_adjustment',
      'royalty_posting',
      'split_release',
      'split_return',
      'suspense_assignment',
      'suspense_release',
      'withdrawal_cancel',
      'withdrawal_paid',
      'withdrawal_reject',
      'withdrawal_request',
    ]);
    // The older audit agrees.
    expect(await cliCommands['audit:balances']?.run(system, [], {})).toContain('every balance matches');
  });

  it('finds a cached balance changed behind the journal, with the difference, and exit 1', async () => {
    await run(
      system.db,
      sql`update profiles set balance_cents = balance_cents + 1 where id = ${owner.userId}`,
    );
    const tampered = await verify();
    expect(tampered.ok).toBe(false);
    const cents = (await profileOf(owner.userId)).balanceCents;
    expect(tampered.text).toContain(
      `available balance: journal.owner@example.com: journal ${cents - 1}, recorded ${cents}`,
    );
    await run(
      system.db,
      sql`update profiles set balance_cents = balance_cents - 1 where id = ${owner.userId}`,
    );
    expect((await verify()).ok).toBe(true);
  });
});
