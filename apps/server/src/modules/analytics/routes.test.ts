/** The Pro analytics API: who may see it, the earnings series and balances from the journal, releases, the CSV export. */
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceUpdatesLog } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { approveWithdrawal, rejectWithdrawal } from '../admin-withdrawals';
import { applyBalanceChange, requestWithdrawal } from '../wallet';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

describe('access', () => {
  it('refuses basic users on the server, lets pro, free access and admins in', async () => {
    const basic = await system.signedInUser({ plan: 'basic' });
    for (const path of ['/api/analytics', '/api/analytics/withdrawals.csv']) {
      const response = await system.request(path, { cookie: basic.cookie });
      expect(response.status).toBe(403);
      expect((await readJson(response)).error.code).toBe('pro_required');
    }
    expect((await system.request('/api/analytics')).status).toBe(401);
    for (const options of [
      { plan: 'pro' as const },
      { plan: 'basic' as const, roles: ['free_access' as const], subscription: 'inactive' as const },
      { plan: 'basic' as const, roles: ['admin' as const] },
    ]) {
      const user = await system.signedInUser(options);
      expect((await system.request('/api/analytics', { cookie: user.cookie })).status).toBe(200);
    }
  });

  it('answers 422 for an unknown range', async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    expect((await system.request('/api/analytics?range=5y', { cookie: pro.cookie })).status).toBe(422);
  });
});

describe('GET /api/analytics', () => {
  it('builds the earnings series from the journal, with the earlier earnings as the starting cumulative', async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    // The first $100 was earned 40 days ago: outside the 30-day range, inside the 30 days before it.
    await fundUser(system, pro.userId, 10_000, new Date(Date.now() - 40 * 24 * 3600 * 1000));
    await applyBalanceChange(system.db, {
      userId: pro.userId,
      newBalanceCents: 12_550,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'manual',
    });
    await savePaypal(system, pro.userId);
    await requestWithdrawal(system.db, pro.userId, 50);

    const report = await readJson(await system.request('/api/analytics?range=30d', { cookie: pro.cookie }));
    expect(report.bucket).toBe('day');
    expect(report.earnings.length).toBeGreaterThanOrEqual(30);
    expect(report.earnings.length).toBeLessThanOrEqual(32);
    const last = report.earnings.at(-1);
    expect(last).toMatchObject({ earningsCents: 2550, cumulativeCents: 12_550, balanceCents: 7550 });
    expect(report.earnings[0].cumulativeCents).toBe(10_000);
    expect(report.totals).toMatchObject({
      balanceCents: 7550,
      totalEarningsCents: 12_550,
      pendingBalanceCents: 5000,
      withdrawnCents: 0,
      earningsInRangeCents: 2550,
      earningsPreviousRangeCents: 10_000,
      bestPeriod: { earningsCents: 2550 },
    });
    expect(report.withdrawals).toHaveLength(1);
    expect(report.withdrawals[0]).toMatchObject({
      amountCents: 5000,
      status: 'pending',
      paymentMethod: 'paypal',
    });

    const all = await readJson(await system.request('/api/analytics?range=all', { cookie: pro.cookie }));
    expect(all.bucket).toBe('month');
    expect(all.totals.earningsInRangeCents).toBe(12_550);
    expect(all.totals.earningsPreviousRangeCents).toBeNull();
    expect(all.earnings.at(-1).cumulativeCents).toBe(12_550);
  });

  it('reads the money from the journal: a tampered cached balance or balance history changes nothing', async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    const admin = await system.signedInUser({ roles: ['admin'] });
    await fundUser(system, pro.userId, 10_000, new Date(Date.now() - 40 * 24 * 3600 * 1000));
    await fundUser(system, pro.userId, 12_000);
    await savePaypal(system, pro.userId);
    const paid = await requestWithdrawal(system.db, pro.userId, 30);
    expect(
      (await approveWithdrawal(system.db, { id: admin.userId, email: admin.email }, paid.id)).status,
    ).toBe('completed');
    const rejected = await requestWithdrawal(system.db, pro.userId, 25);
    await rejectWithdrawal(system.db, { id: admin.userId, email: admin.email }, rejected.id, 'Wrong account');
    const before = await readJson(await system.request('/api/analytics?range=30d', { cookie: pro.cookie }));
    expect(before.totals).toMatchObject({
      balanceCents: 9000,
      pendingBalanceCents: 0,
      withdrawnCents: 3000,
      earningsInRangeCents: 2000,
      earningsPreviousRangeCents: 10_000,
    });
    expect(before.earnings.at(-1)).toMatchObject({
      earningsCents: 2000,
      cumulativeCents: 12_000,
      balanceCents: 9000,
    });

    await system.db.execute(
      sql`update profiles set balance_cents = 1, pending_balance_cents = 2 where id = ${pro.userId}`,
    );
    await system.db.execute(
      sql`update ${balanceUpdatesLog} set new_balance_cents = 5, earnings_delta_cents = 7 where user_id = ${pro.userId}`,
    );
    const after = await readJson(await system.request('/api/analytics?range=30d', { cookie: pro.cookie }));
    expect(after.totals).toEqual(before.totals);
    expect(after.earnings).toEqual(before.earnings);
  });

  it("follows an admin's hand edit of total earnings, as total earnings does (spec 5, record 275)", async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    const admin = await system.signedInUser({ roles: ['admin'] });
    await fundUser(system, pro.userId, 10_000, new Date(Date.now() - 40 * 24 * 3600 * 1000));
    const edit = (figures: { balanceCents: number; totalEarningsCents: number }) =>
      system.request(`/api/admin/balances/users/${pro.userId}`, {
        method: 'PUT',
        cookie: admin.cookie,
        json: { ...figures, pendingBalanceCents: 0 },
      });
    // Total earnings set by hand to $150 (the balance unchanged: no money moves), then the balance raised
    // by $20 with total earnings left at $150 (+$20 on top, spec 5), then total earnings lowered by $5.
    expect((await edit({ balanceCents: 10_000, totalEarningsCents: 15_000 })).status).toBe(200);
    expect((await edit({ balanceCents: 12_000, totalEarningsCents: 15_000 })).status).toBe(200);
    expect((await edit({ balanceCents: 12_000, totalEarningsCents: 16_500 })).status).toBe(200);

    const report = await readJson(await system.request('/api/analytics?range=30d', { cookie: pro.cookie }));
    expect(report.totals).toMatchObject({
      balanceCents: 12_000,
      totalEarningsCents: 16_500,
      earningsInRangeCents: 6500,
      earningsPreviousRangeCents: 10_000,
    });
    expect(report.earnings.at(-1)).toMatchObject({
      earningsCents: 6500,
      cumulativeCents: 16_500,
      balanceCents: 12_000,
    });
    const all = await readJson(await system.request('/api/analytics?range=all', { cookie: pro.cookie }));
    expect(all.earnings.at(-1).cumulativeCents).toBe(16_500);
    expect(all.totals.earningsInRangeCents).toBe(16_500);
  });

  it('counts releases by status, tracks and platforms, only for the caller', async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    const other = await system.signedInUser({ plan: 'pro' });
    await createTestRelease(system, pro.userId, { status: 'live', trackCount: 2 });
    await createTestRelease(system, pro.userId, { status: 'live' });
    await createTestRelease(system, pro.userId, { status: 'pending' });
    await createTestRelease(system, other.userId, { status: 'rejected' });
    const report = await readJson(await system.request('/api/analytics', { cookie: pro.cookie }));
    expect(report.releases).toEqual({
      total: 3,
      tracks: 4,
      byStatus: [
        { status: 'live', count: 2 },
        { status: 'pending', count: 1 },
      ],
      topPlatforms: [
        { id: 'apple_music', count: 3 },
        { id: 'spotify', count: 3 },
      ],
    });
  });
});

describe('GET /api/analytics/withdrawals.csv', () => {
  it('exports the history as CSV with spreadsheet formulas neutralised', async () => {
    const pro = await system.signedInUser({ plan: 'pro' });
    const admin = await system.signedInUser({ roles: ['admin'] });
    await fundUser(system, pro.userId, 10_000);
    await savePaypal(system, pro.userId);
    const first = await requestWithdrawal(system.db, pro.userId, '25.50');
    await rejectWithdrawal(
      system.db,
      { id: admin.userId, email: admin.email },
      first.id,
      '=HYPERLINK("x"), sorry',
    );
    const response = await system.request('/api/analytics/withdrawals.csv', { cookie: pro.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(
      /attachment; filename="withdrawals-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('requested_at,amount,status,payment_method,processed_at,rejection_reason');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^\d{4}-\d{2}-\d{2}T[^,]+,25\.50,rejected,paypal,\d{4}-[^,]+,"'=HYPERLINK\(""x""\), sorry"$/,
    );
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(eq(balanceUpdatesLog.userId, pro.userId));
    expect(logs.map((log) => log.updateType).sort()).toEqual([
      'cli',
      'withdrawal_refund',
      'withdrawal_request',
    ]);
    // Issue 22, finding 5: a leading minus-and-digit and a leading @ are escaped too; amounts stay numbers.
    const second = await requestWithdrawal(system.db, pro.userId, '20.00');
    await rejectWithdrawal(
      system.db,
      { id: admin.userId, email: admin.email },
      second.id,
      "-1+1+cmd|' /C calc'!A0",
    );
    const third = await requestWithdrawal(system.db, pro.userId, '21.50');
    await rejectWithdrawal(system.db, { id: admin.userId, email: admin.email }, third.id, '@SUM(A1:A9)');
    const records: string[][] = parse(
      await (await system.request('/api/analytics/withdrawals.csv', { cookie: pro.cookie })).text(),
    );
    expect(records.slice(1).map((record) => [record[1], record[5]])).toEqual(
      expect.arrayContaining([
        ['25.50', '\'=HYPERLINK("x"), sorry'],
        ['20.00', "'-1+1+cmd|' /C calc'!A0"],
        ['21.50', "'@SUM(A1:A9)"],
      ]),
    );
  });
});
