/** Ledger rules below the routes: racing transitions, the balance batch, the audit, encryption at rest. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, balanceUpdatesLog, profiles, withdrawalRequests } from '../../db/schema';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { approveWithdrawal, rejectWithdrawal } from '../admin-withdrawals';
import { auditBalances, describeMismatch } from './audit';
import { applyBalanceChange, applyBalanceChanges } from './balance';
import { decryptPaymentDetails, encryptPaymentDetails } from './payment-crypto';
import { cancelWithdrawal, requestWithdrawal } from './service';

let system: TestSystem;
let admin: { id: string; email: string };
beforeAll(async () => {
  system = await createTestSystem();
  const user = await system.signedInUser({ roles: ['admin'] });
  admin = { id: user.userId, email: user.email };
});
afterAll(async () => {
  await system.close();
});

async function fundedArtist(balanceCents: number) {
  const user = await system.signedInUser({ plan: 'pro' });
  await fundUser(system, user.userId, balanceCents);
  await savePaypal(system, user.userId);
  return user;
}

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

const settle = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'won' as const,
    (error: { code?: string }) => error.code ?? 'error',
  );

describe('racing transitions', () => {
  it('a cancel racing an admin approval: exactly one wins, and the money adds up', async () => {
    const user = await fundedArtist(50_000);
    const winners = { cancel: 0, approve: 0 };
    for (let round = 0; round < 8; round += 1) {
      const request = await requestWithdrawal(system.db, user.userId, 25);
      const racers = [
        settle(cancelWithdrawal(system.db, user.userId, request.id)),
        settle(approveWithdrawal(system.db, admin, request.id)),
      ];
      if (round % 2 === 1) racers.reverse();
      const [first, second] = await Promise.all(racers);
      expect([first, second].sort()).toEqual(['not_pending', 'won']);
      const [row] = await system.db
        .select()
        .from(withdrawalRequests)
        .where(eq(withdrawalRequests.id, request.id));
      if (row?.status === 'cancelled') winners.cancel += 1;
      else if (row?.status === 'completed') winners.approve += 1;
      else throw new Error(`unexpected status ${row?.status}`);
    }
    const profile = await profileOf(user.userId);
    expect(profile.pendingBalanceCents).toBe(0);
    expect(profile.balanceCents).toBe(50_000 - winners.approve * 2500);
    expect(winners.cancel + winners.approve).toBe(8);
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => mismatch.userId === user.userId)).toEqual([]);
  });

  it('a rejection refunds the balance once, records the reason and an audit row', async () => {
    const user = await fundedArtist(10_000);
    const request = await requestWithdrawal(system.db, user.userId, '40.00');
    await expect(rejectWithdrawal(system.db, admin, request.id, '   ')).rejects.toMatchObject({
      code: 'rejection_reason_required',
      message: 'Please provide a reason for rejecting this request.',
    });
    const rejected = await rejectWithdrawal(system.db, admin, request.id, 'PayPal account closed');
    expect(rejected).toMatchObject({ status: 'rejected', balanceCents: 10_000 });
    await expect(rejectWithdrawal(system.db, admin, request.id, 'again')).rejects.toMatchObject({
      code: 'not_pending',
    });
    await expect(approveWithdrawal(system.db, admin, request.id)).rejects.toMatchObject({
      code: 'not_pending',
    });
    const [row] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.id, request.id));
    expect(row).toMatchObject({
      status: 'rejected',
      processedBy: admin.id,
      rejectionReason: 'PayPal account closed',
    });
    expect(row?.processedAt).toBeInstanceOf(Date);
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 10_000, pendingBalanceCents: 0 });
    const audits = await system.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.withdrawalRequestId, request.id));
    expect(audits.map((entry) => entry.action)).toEqual(['withdrawal.reject']);
  });

  it("answers 'Withdrawal not found.' for unknown ids", async () => {
    await expect(
      approveWithdrawal(system.db, admin, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({
      status: 404,
      message: 'Withdrawal not found.',
    });
  });
});

describe('applyBalanceChanges', () => {
  it('applies a batch, reports stale and unknown rows without touching them', async () => {
    const a = await fundedArtist(1000);
    const b = await fundedArtist(2000);
    const results = await applyBalanceChanges(system.db, [
      {
        userId: a.userId,
        newBalanceCents: 1500,
        expectedOldBalanceCents: 1000,
        addsPositiveDifferenceToEarnings: true,
        updateType: 'bulk_csv',
      },
      { userId: b.userId, newBalanceCents: 9999, expectedOldBalanceCents: 1999, updateType: 'bulk_csv' },
      { userId: 'nobody', newBalanceCents: 1, updateType: 'bulk_csv' },
    ]);
    expect(results.map((result) => result.status)).toEqual(['applied', 'stale', 'not_found']);
    expect(await profileOf(a.userId)).toMatchObject({ balanceCents: 1500, totalEarningsCents: 1500 });
    expect(await profileOf(b.userId)).toMatchObject({ balanceCents: 2000, totalEarningsCents: 2000 });
  });

  it('never lets a balance go below zero', async () => {
    const a = await fundedArtist(1000);
    await expect(
      applyBalanceChange(system.db, { userId: a.userId, balanceDeltaCents: -1001, updateType: 'manual' }),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect((await profileOf(a.userId)).balanceCents).toBe(1000);
  });
});

describe('auditBalances', () => {
  it('finds a balance changed outside the balance path, and a pending balance without requests', async () => {
    const user = await fundedArtist(5000);
    await system.db.update(profiles).set({ balanceCents: 7000 }).where(eq(profiles.id, user.userId));
    const other = await fundedArtist(5000);
    await system.db.update(profiles).set({ pendingBalanceCents: 100 }).where(eq(profiles.id, other.userId));
    const { mismatches } = await auditBalances(system.db);
    const mine = mismatches.filter((mismatch) => [user.userId, other.userId].includes(mismatch.userId));
    expect(mine).toHaveLength(2);
    const balance = mine.find((mismatch) => mismatch.userId === user.userId);
    expect(balance).toMatchObject({ field: 'balance', storedCents: 7000, expectedCents: 5000 });
    expect(mine.find((mismatch) => mismatch.userId === other.userId)).toMatchObject({
      field: 'pending_balance',
      storedCents: 100,
      expectedCents: 0,
    });
    expect(describeMismatch(balance as (typeof mine)[number])).toContain(
      'balance is $70.00 but the balance log gives $50.00',
    );
  });

  it('finds a gap in the log chain', async () => {
    const user = await fundedArtist(5000);
    await system.db.execute(
      sql`update ${balanceUpdatesLog} set old_balance_cents = 1 where user_id = ${user.userId}`,
    );
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => mismatch.userId === user.userId)).toEqual([
      expect.objectContaining({ field: 'log_chain', storedCents: 1, expectedCents: 0 }),
    ]);
  });
});

describe('payment details encryption', () => {
  it('decrypts only for the same user and secret', () => {
    const secret = 'a'.repeat(40);
    const value = { method: 'paypal' as const, details: { paypal_email: 'jo@example.com' } };
    const text = encryptPaymentDetails(secret, 'user-1', value);
    expect(text).not.toContain('jo@example.com');
    expect(encryptPaymentDetails(secret, 'user-1', value)).not.toBe(text);
    expect(decryptPaymentDetails(secret, 'user-1', text)).toEqual(value);
    expect(() => decryptPaymentDetails(secret, 'user-2', text)).toThrow();
    expect(() => decryptPaymentDetails('b'.repeat(40), 'user-1', text)).toThrow();
  });
});
