/** The wallet API: payment settings (§5 texts, encrypted at rest, masked), withdrawals (§5 texts in order), cancel. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceUpdatesLog, profiles, withdrawalRequests } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, saveBank, savePaypal } from '../../test-support/wallet-fixtures';
import { auditBalances } from './audit';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

async function artist(options: { plan?: 'basic' | 'pro'; balanceCents?: number; paypal?: boolean } = {}) {
  const user = await system.signedInUser({ plan: options.plan ?? 'basic' });
  if (options.balanceCents) await fundUser(system, user.userId, options.balanceCents);
  if (options.paypal) await savePaypal(system, user.userId);
  return user;
}

const withdraw = (cookie: string, amount: unknown) =>
  system.request('/api/wallet/withdrawals', { method: 'POST', cookie, json: { amount } });

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

describe('GET /api/wallet', () => {
  it('shows balances and the $50 minimum for basic, $20 for pro and free access', async () => {
    const basic = await artist({ balanceCents: 12_345 });
    const summary = await readJson(await system.request('/api/wallet', { cookie: basic.cookie }));
    expect(summary).toMatchObject({
      balanceCents: 12_345,
      totalEarningsCents: 12_345,
      pendingBalanceCents: 0,
      minimumWithdrawalCents: 5000,
      hasProMinimum: false,
      paymentMethod: null,
      paymentDetails: null,
      pendingRequests: [],
    });
    const pro = await artist({ plan: 'pro' });
    expect(await readJson(await system.request('/api/wallet', { cookie: pro.cookie }))).toMatchObject({
      minimumWithdrawalCents: 2000,
      hasProMinimum: true,
    });
    const free = await system.signedInUser({
      plan: 'basic',
      roles: ['free_access'],
      subscription: 'inactive',
    });
    expect(await readJson(await system.request('/api/wallet', { cookie: free.cookie }))).toMatchObject({
      minimumWithdrawalCents: 2000,
    });
  });

  it('refuses anonymous callers; an account without a subscription still reaches its money (decision 120)', async () => {
    expect((await system.request('/api/wallet')).status).toBe(401);
    const lapsed = await system.signedInUser({ subscription: 'inactive' });
    const response = await system.request('/api/wallet', { cookie: lapsed.cookie });
    expect(response.status).toBe(200);
  });
});

describe('PUT /api/wallet/payment-settings', () => {
  const save = (cookie: string, json: unknown) =>
    system.request('/api/wallet/payment-settings', { method: 'PUT', cookie, json });

  it('answers each §5 message', async () => {
    const user = await artist();
    const cases: [unknown, string, string][] = [
      [{}, 'payment_method_required', 'Please select a payment method'],
      [{ payment_method: 'cheque' }, 'payment_method_required', 'Please select a payment method'],
      [
        {
          payment_method: 'bank',
          payment_details: { account_name: 'A', account_number: '1', routing_number: ' ', bank_name: 'B' },
        },
        'bank_fields_required',
        'Please fill in all bank account details',
      ],
      [
        { payment_method: 'paypal', payment_details: { paypal_email: 'not-an-email' } },
        'paypal_email_invalid',
        'Please enter a valid PayPal email address',
      ],
      [{ payment_method: 'paypal' }, 'paypal_email_invalid', 'Please enter a valid PayPal email address'],
    ];
    for (const [body, code, message] of cases) {
      const response = await save(user.cookie, body);
      expect(response.status).toBe(422);
      expect((await readJson(response)).error).toMatchObject({ code, message });
    }
  });

  it('stores bank details encrypted and shows them back masked', async () => {
    const user = await artist();
    const response = await save(user.cookie, {
      payment_method: 'bank',
      payment_details: {
        account_name: 'Jo Artist',
        account_number: '000123456789',
        routing_number: '021000021',
        bank_name: 'First Bank',
      },
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).paymentDetails).toEqual({
      method: 'bank',
      accountName: 'Jo Artist',
      bankName: 'First Bank',
      accountNumber: '•••• 6789',
      routingNumber: '•••• 0021',
    });
    const stored = await profileOf(user.userId);
    expect(stored.paymentMethod).toBe('bank');
    expect(stored.paymentDetailsEncrypted).toMatch(/^v1\./);
    expect(stored.paymentDetailsEncrypted).not.toContain('123456789');
    expect(stored.paymentDetailsEncrypted).not.toContain('Jo Artist');
    const summary = await readJson(await system.request('/api/wallet', { cookie: user.cookie }));
    expect(summary.paymentMethod).toBe('bank');
    expect(summary.paymentDetails.accountNumber).toBe('•••• 6789');
    expect(JSON.stringify(summary)).not.toContain('123456789');
  });

  it('masks a PayPal address', async () => {
    const user = await artist();
    const response = await save(user.cookie, {
      payment_method: 'paypal',
      payment_details: { paypal_email: 'jo.artist@example.com' },
    });
    expect((await readJson(response)).paymentDetails).toEqual({
      method: 'paypal',
      paypalEmail: 'jo••••@example.com',
    });
  });
});

describe('POST /api/wallet/withdrawals', () => {
  const expectError = async (response: Response, code: string, message: string) => {
    expect(response.status).toBe(422);
    expect((await readJson(response)).error).toMatchObject({ code, message });
  };

  it('needs saved payment info first, whatever the amount', async () => {
    const user = await artist({ balanceCents: 10_000 });
    await expectError(
      await withdraw(user.cookie, 'abc'),
      'payment_info_required',
      'Please add your payment information before requesting a withdrawal',
    );
  });

  it('needs the balance to reach the plan minimum before looking at the amount', async () => {
    const basic = await artist({ balanceCents: 3000, paypal: true });
    await expectError(
      await withdraw(basic.cookie, 'abc'),
      'balance_below_minimum',
      'Minimum withdrawal is $50.00. Your balance: $30.00',
    );
    const pro = await artist({ plan: 'pro', balanceCents: 1999, paypal: true });
    await expectError(
      await withdraw(pro.cookie, 10),
      'balance_below_minimum',
      'Minimum withdrawal is $20.00. Your balance: $19.99',
    );
  });

  it('rejects amounts that are not a number above 0 with at most 2 decimals', async () => {
    const user = await artist({ balanceCents: 10_000, paypal: true });
    for (const amount of ['abc', '', 0, '0', -5, '-5', '12.345', null, '1e3']) {
      await expectError(await withdraw(user.cookie, amount), 'invalid_amount', 'Please enter a valid amount');
    }
  });

  it('rejects an amount under the minimum, then one above the balance', async () => {
    const user = await artist({ balanceCents: 10_000, paypal: true });
    await expectError(await withdraw(user.cookie, '49.99'), 'amount_too_low', 'Minimum withdrawal is $50.00');
    await expectError(
      await withdraw(user.cookie, '100.01'),
      'insufficient_balance',
      'You only have $100.00 available',
    );
    expect((await profileOf(user.userId)).balanceCents).toBe(10_000);
  });

  it('moves the amount from available to pending, snapshots the payment details and logs it', async () => {
    const user = await artist({ balanceCents: 10_000 });
    await saveBank(system, user.userId);
    const response = await withdraw(user.cookie, '60.50');
    expect(response.status).toBe(201);
    const body = await readJson(response);
    expect(body).toMatchObject({
      amountCents: 6050,
      status: 'pending',
      balanceCents: 3950,
      pendingBalanceCents: 6050,
    });
    const profile = await profileOf(user.userId);
    expect(profile).toMatchObject({
      balanceCents: 3950,
      pendingBalanceCents: 6050,
      totalEarningsCents: 10_000,
    });
    const [request] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.id, body.id));
    expect(request?.paymentMethod).toBe('bank');
    expect(request?.paymentDetailsEncrypted).toMatch(/^v1\./);
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(
        and(
          eq(balanceUpdatesLog.userId, user.userId),
          eq(balanceUpdatesLog.updateType, 'withdrawal_request'),
        ),
      );
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ oldBalanceCents: 10_000, newBalanceCents: 3950, earningsDeltaCents: 0 });
    expect(logs[0]?.withdrawalRequestId).toBe(body.id);

    const summary = await readJson(await system.request('/api/wallet', { cookie: user.cookie }));
    expect(summary.pendingRequests).toHaveLength(1);
    expect(summary.pendingRequests[0]).toMatchObject({ id: body.id, amountCents: 6050, status: 'pending' });
    expect(summary.pendingRequests[0].paymentDetails.accountNumber).toBe('•••• 6789');
  });

  it('lets exactly 3 of 50 parallel $30 withdrawals through on a $100 balance', async () => {
    const user = await artist({ plan: 'pro', balanceCents: 10_000, paypal: true });
    const responses = await Promise.all(Array.from({ length: 50 }, () => withdraw(user.cookie, 30)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 422)).toHaveLength(47);
    const profile = await profileOf(user.userId);
    expect(profile.balanceCents).toBe(1000);
    expect(profile.pendingBalanceCents).toBe(9000);
    const requests = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.userId, user.userId));
    expect(requests).toHaveLength(3);
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(eq(balanceUpdatesLog.userId, user.userId));
    expect(logs.every((log) => log.newBalanceCents >= 0)).toBe(true);
    expect(
      logs
        .filter((log) => log.updateType === 'withdrawal_request')
        .map((log) => log.newBalanceCents)
        .sort(),
    ).toEqual([1000, 4000, 7000]);
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => mismatch.userId === user.userId)).toEqual([]);
  });
});

describe('POST /api/wallet/withdrawals/:id/cancel', () => {
  it('cancels a pending request and restores the balance, only once', async () => {
    const user = await artist({ balanceCents: 10_000, paypal: true });
    const created = await readJson(await withdraw(user.cookie, 75));
    const cancel = () =>
      system.request(`/api/wallet/withdrawals/${created.id}/cancel`, { method: 'POST', cookie: user.cookie });
    const first = await cancel();
    expect(first.status).toBe(200);
    expect(await readJson(first)).toMatchObject({
      status: 'cancelled',
      balanceCents: 10_000,
      pendingBalanceCents: 0,
    });
    const second = await cancel();
    expect(second.status).toBe(409);
    expect((await readJson(second)).error.code).toBe('not_pending');
    const profile = await profileOf(user.userId);
    expect(profile).toMatchObject({
      balanceCents: 10_000,
      pendingBalanceCents: 0,
      totalEarningsCents: 10_000,
    });
  });

  it("answers 'Withdrawal not found.' for another user's request or an unknown id", async () => {
    const owner = await artist({ balanceCents: 10_000, paypal: true });
    const other = await artist();
    const created = await readJson(await withdraw(owner.cookie, 60));
    for (const id of [created.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await system.request(`/api/wallet/withdrawals/${id}/cancel`, {
        method: 'POST',
        cookie: other.cookie,
      });
      expect(response.status).toBe(404);
      expect((await readJson(response)).error.message).toBe('Withdrawal not found.');
    }
    expect((await profileOf(owner.userId)).pendingBalanceCents).toBe(6000);
  });
});
