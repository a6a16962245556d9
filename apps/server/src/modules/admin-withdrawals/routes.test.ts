/** Withdrawal Management API: list with decrypted details, search, tabs, approve, reject with refund, races. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, profiles, withdrawalRequests } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, saveBank, savePaypal } from '../../test-support/wallet-fixtures';
import { auditBalances, requestWithdrawal } from '../wallet';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

async function artistWithRequest(
  amount: string | number,
  options: { artistName?: string; bank?: boolean } = {},
) {
  const user = await system.signedInUser({ plan: 'pro', artistName: options.artistName ?? 'Request Artist' });
  await fundUser(system, user.userId, 20_000);
  if (options.bank) await saveBank(system, user.userId);
  else await savePaypal(system, user.userId, `${user.email.split('@')[0]}.pay@example.com`);
  const request = await requestWithdrawal(system.db, user.userId, amount);
  return { user, request };
}

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

describe('GET /api/admin/withdrawals', () => {
  it('lists pending requests with the payment details decrypted, searchable by artist name or email', async () => {
    const tag = `Wq${crypto.randomUUID().slice(0, 6)}`;
    const bank = await artistWithRequest('60.00', { artistName: `${tag} Bank`, bank: true });
    const paypal = await artistWithRequest(25, { artistName: `${tag} PayPal` });
    const response = await asAdmin(`/api/admin/withdrawals?tab=pending&q=${tag.toLowerCase()}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await readJson(response);
    expect(page.counts).toEqual({ pending: 2, completed: 0 });
    expect(page.pendingTotalCents).toBe(8500);
    const byId = new Map(page.withdrawals.map((item: { id: string }) => [item.id, item]));
    expect(byId.get(bank.request.id)).toMatchObject({
      email: bank.user.email,
      artistName: `${tag} Bank`,
      amountCents: 6000,
      paymentMethod: 'bank',
      paymentDetails: {
        account_name: 'Test Artist',
        account_number: '000123456789',
        routing_number: '021000021',
        bank_name: 'First Test Bank',
      },
      status: 'pending',
      userBalanceCents: 14_000,
    });
    expect(byId.get(paypal.request.id)).toMatchObject({
      paymentDetails: { paypal_email: expect.stringContaining('.pay@') },
    });

    const byEmail = await readJson(
      await asAdmin(`/api/admin/withdrawals?q=${encodeURIComponent(paypal.user.email.toUpperCase())}`),
    );
    expect(byEmail.withdrawals.map((item: { id: string }) => item.id)).toEqual([paypal.request.id]);
  });

  it('shows completed, rejected and cancelled requests in the Completed tab', async () => {
    const tag = `Wc${crypto.randomUUID().slice(0, 6)}`;
    const approved = await artistWithRequest(30, { artistName: `${tag} A` });
    const rejected = await artistWithRequest(31, { artistName: `${tag} B` });
    const cancelled = await artistWithRequest(32, { artistName: `${tag} C` });
    const pending = await artistWithRequest(33, { artistName: `${tag} D` });
    expect(
      (await asAdmin(`/api/admin/withdrawals/${approved.request.id}/approve`, { method: 'POST' })).status,
    ).toBe(200);
    expect(
      (
        await asAdmin(`/api/admin/withdrawals/${rejected.request.id}/reject`, {
          method: 'POST',
          json: { reason: 'No' },
        })
      ).status,
    ).toBe(200);
    await system.request(`/api/wallet/withdrawals/${cancelled.request.id}/cancel`, {
      method: 'POST',
      cookie: cancelled.user.cookie,
    });
    const completed = await readJson(await asAdmin(`/api/admin/withdrawals?tab=completed&q=${tag}`));
    expect(completed.counts).toEqual({ pending: 1, completed: 3 });
    const statuses = completed.withdrawals.map((item: { status: string }) => item.status).sort();
    expect(statuses).toEqual(['cancelled', 'completed', 'rejected']);
    const approvedRow = completed.withdrawals.find((item: { id: string }) => item.id === approved.request.id);
    expect(approvedRow.processedByEmail).toBe(people.admin.email);
    expect(approvedRow.processedAt).toEqual(expect.any(String));
    const pendingPage = await readJson(await asAdmin(`/api/admin/withdrawals?tab=pending&q=${tag}`));
    expect(pendingPage.withdrawals.map((item: { id: string }) => item.id)).toEqual([pending.request.id]);
  });
});

describe('approve and reject', () => {
  it('approves once: completed, processed_at and processed_by set, pending released, balance unchanged', async () => {
    const { user, request } = await artistWithRequest(50);
    const response = await asAdmin(`/api/admin/withdrawals/${request.id}/approve`, { method: 'POST' });
    expect(response.status).toBe(200);
    const [row] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.id, request.id));
    expect(row).toMatchObject({ status: 'completed', processedBy: people.admin.userId });
    expect(row?.processedAt).toBeInstanceOf(Date);
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 15_000, pendingBalanceCents: 0 });
    const again = await asAdmin(`/api/admin/withdrawals/${request.id}/approve`, { method: 'POST' });
    expect(again.status).toBe(409);
    const missing = await asAdmin('/api/admin/withdrawals/00000000-0000-4000-8000-000000000000/approve', {
      method: 'POST',
    });
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.message).toBe('Withdrawal not found.');
  });

  it('rejects only with a reason, refunds the balance and mails the artist', async () => {
    const { user, request } = await artistWithRequest(80);
    for (const json of [{}, { reason: '  ' }]) {
      const response = await asAdmin(`/api/admin/withdrawals/${request.id}/reject`, { method: 'POST', json });
      expect(response.status).toBe(422);
      expect((await readJson(response)).error).toMatchObject({
        code: 'rejection_reason_required',
        message: 'Please provide a reason for rejecting this request.',
      });
    }
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 12_000, pendingBalanceCents: 8000 });
    const response = await asAdmin(`/api/admin/withdrawals/${request.id}/reject`, {
      method: 'POST',
      json: { reason: 'Bank details do not match the account holder' },
    });
    expect(response.status).toBe(200);
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 20_000, pendingBalanceCents: 0 });
    const [row] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.id, request.id));
    expect(row).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Bank details do not match the account holder',
      processedBy: people.admin.userId,
    });
    const mails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, user.email));
    expect(mails.some((mail) => mail.textBody.includes('Bank details do not match the account holder'))).toBe(
      true,
    );
    const twice = await asAdmin(`/api/admin/withdrawals/${request.id}/reject`, {
      method: 'POST',
      json: { reason: 'x' },
    });
    expect(twice.status).toBe(409);
    expect((await profileOf(user.userId)).balanceCents).toBe(20_000);
  });

  it('a refund racing a cancel: exactly one wins and the amount comes back once', async () => {
    const user = await system.signedInUser({ plan: 'pro' });
    await fundUser(system, user.userId, 100_000);
    await savePaypal(system, user.userId);
    for (let round = 0; round < 6; round += 1) {
      const request = await requestWithdrawal(system.db, user.userId, 20);
      const racers = [
        asAdmin(`/api/admin/withdrawals/${request.id}/reject`, { method: 'POST', json: { reason: 'race' } }),
        system.request(`/api/wallet/withdrawals/${request.id}/cancel`, {
          method: 'POST',
          cookie: user.cookie,
        }),
      ];
      if (round % 2 === 1) racers.reverse();
      const statuses = (await Promise.all(racers)).map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409]);
      const profile = await profileOf(user.userId);
      expect(profile).toMatchObject({ balanceCents: 100_000, pendingBalanceCents: 0 });
    }
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => mismatch.userId === user.userId)).toEqual([]);
  });
});
