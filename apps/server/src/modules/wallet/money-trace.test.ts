/**
 * Money actions by team members traced (issue 43 finding 10, record 229), over HTTP on the real database:
 * a Finance member's change of payout details is audited with the member and the account, mails the
 * owner a confirmation link (record 314) and, once confirmed, holds withdrawals (409 saying until when) for
 * PAYOUT_HOLD_HOURS; a withdrawal a member
 * requests is audited and mailed to the owner; the owner's own first details hold nothing; a Catalog
 * member's release edit is audited as the member for the account.
 */
import { PAYOUT_CONFIRM_TEXTS } from '@tunedrop/shared/schemas/payout-details';
import { holdTime, PAYOUT_HOLD_TEXTS } from '@tunedrop/shared/schemas/wallet';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, profiles } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { joinTeam } from '../../test-support/team-fixtures';
import { fundUser } from '../../test-support/wallet-fixtures';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let admin: Person;

beforeAll(async () => {
  system = await createTestSystem({ PAYOUT_HOLD_HOURS: '48' });
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Traced Owner' });
  admin = await system.signedInUser({ roles: ['admin'] });
  await fundUser(system, owner.userId, 500_00);
});
afterAll(async () => {
  await system?.close();
});

const joinAs = (role: 'catalog' | 'finance') => joinTeam(system, owner, role);

const setPaypal = (cookie: string, email: string) =>
  system.request('/api/wallet/payment-settings', {
    method: 'PUT',
    cookie,
    json: { payment_method: 'paypal', payment_details: { paypal_email: email } },
  });
const withdraw = (cookie: string, amount: number) =>
  system.request('/api/wallet/withdrawals', { method: 'POST', cookie, json: { amount } });
const mailsTo = (to: string) => system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, to));
const auditRows = (action: string) =>
  system.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.createdAt);

describe('payout details and withdrawals on a team account', () => {
  it('the owner’s first details hold nothing and mail nobody; a withdrawal is audited', async () => {
    expect((await setPaypal(owner.cookie, 'owner.pay@example.com')).status).toBe(200);
    const wallet = await readJson(await system.request('/api/wallet', { cookie: owner.cookie }));
    expect(wallet.payoutHoldUntil).toBeNull();
    const request = await withdraw(owner.cookie, 50);
    expect(request.status).toBe(201);
    expect(await mailsTo(owner.email)).toHaveLength(0);
    const [row] = await auditRows('wallet.withdrawal_request');
    expect(row).toMatchObject({ actorId: owner.userId, accountId: null, subjectUserId: owner.userId });
    expect(row?.after).toMatchObject({ amountCents: 50_00, paidTo: expect.stringContaining('PayPal') });
  });

  it('a Finance member’s new PayPal address: audited, the owner mailed, withdrawals held until a stated time', async () => {
    const finance = await joinAs('finance');
    const before = Date.now();
    expect((await setPaypal(finance.acting, 'thief@example.com')).status).toBe(200);

    const [changed] = (await auditRows('wallet.payment_settings')).filter(
      (row) => row.actorId === finance.userId,
    );
    expect(changed).toMatchObject({ actorEmail: finance.email, accountId: owner.userId });
    expect(changed?.before).toEqual({ details: expect.stringContaining('PayPal o') });
    expect(changed?.after).toMatchObject({ details: expect.stringContaining('PayPal t') });

    // The owner is mailed a confirmation link naming the member (record 314); the hold starts once confirmed.
    const [mail] = await mailsTo(owner.email);
    expect(mail?.subject).toBe(PAYOUT_CONFIRM_TEXTS.mailSubject);
    expect(mail?.textBody).toContain(finance.email);
    expect(
      (await readJson(await system.request('/api/wallet', { cookie: owner.cookie }))).payoutHoldUntil,
    ).toBeNull();
    const token = mail?.textBody.match(/confirm=([\w-]+)/)?.[1] ?? '';
    const confirmed = await system.request('/api/wallet/payment-settings/confirm', {
      method: 'POST',
      cookie: owner.cookie,
      json: { token },
    });
    expect(confirmed.status).toBe(200);

    const wallet = await readJson(await system.request('/api/wallet', { cookie: finance.acting }));
    const until = new Date(wallet.payoutHoldUntil).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 48 * 3_600_000);
    expect(until).toBeLessThan(Date.now() + 48 * 3_600_000 + 1000);
    expect((await readJson(confirmed)).message).toContain(holdTime(wallet.payoutHoldUntil));

    // Held on the server, for the member and the owner alike; nothing moves.
    for (const cookie of [finance.acting, owner.cookie]) {
      const refused = await withdraw(cookie, 60);
      expect(refused.status).toBe(409);
      expect((await readJson(refused)).error.message).toBe(PAYOUT_HOLD_TEXTS.held(wallet.payoutHoldUntil));
    }
    const [account] = await system.db
      .select({ balance: profiles.balanceCents })
      .from(profiles)
      .where(eq(profiles.id, owner.userId));
    expect(account?.balance).toBe(450_00);

    // The owner's own replacement waits for the same confirmation: the hold is never shortened meanwhile.
    expect((await setPaypal(owner.cookie, 'owner.pay@example.com')).status).toBe(200);
    const after = await readJson(await system.request('/api/wallet', { cookie: owner.cookie }));
    expect(new Date(after.payoutHoldUntil).getTime()).toBe(until);
    expect(after.pendingPaymentDetails.details).toMatchObject({ method: 'paypal' });
    expect(await mailsTo(owner.email)).toHaveLength(2);

    // The admin audit trail names the member and the account.
    const page = await readJson(
      await system.request(`/api/admin/audit?kind=wallet&user=${encodeURIComponent(owner.email)}`, {
        cookie: admin.cookie,
      }),
    );
    const shown = page.items.find((entry: { actorEmail: string }) => entry.actorEmail === finance.email);
    expect(shown).toMatchObject({
      action: 'wallet.payment_settings',
      accountId: owner.userId,
      accountLabel: owner.email,
    });
  });

  it('once the hold is over, a member’s withdrawal is audited and mailed to the owner', async () => {
    await system.db.update(profiles).set({ payoutHoldUntil: new Date(Date.now() - 1000) });
    const finance = await joinAs('finance');
    const request = await withdraw(finance.acting, 70);
    expect(request.status).toBe(201);
    const row = (await auditRows('wallet.withdrawal_request')).find(
      (entry) => entry.actorId === finance.userId,
    );
    expect(row).toMatchObject({ accountId: owner.userId, withdrawalRequestId: (await readJson(request)).id });
    const mails = await mailsTo(owner.email);
    const mail = mails.find((entry) => entry.subject === PAYOUT_HOLD_TEXTS.mailSubjectWithdrawal);
    expect(mail?.textBody).toContain('$70.00');
    expect(mail?.textBody).toContain(finance.email);
  });

  it('a Catalog member’s release edit is audited as the member, for the account', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId, { trackCount: 1 });
    const catalog = await joinAs('catalog');
    const edit = await system.request(`/api/releases/${releaseId}`, {
      method: 'PATCH',
      cookie: catalog.acting,
      json: {
        title: 'Renamed By Catalog',
        primaryArtists: ['Traced Owner'],
        genre: 'Rock',
        labelName: 'My Label',
        copyrightHolder: 'Owner Holdings',
        copyrightYear: 2020,
        publishingHolder: 'Owner Publishing',
      },
    });
    expect(edit.status).toBe(200);
    const [row] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'release.edit'), eq(auditLog.releaseId, releaseId)));
    expect(row).toMatchObject({ actorId: catalog.userId, accountId: owner.userId });
    expect(row?.after).toMatchObject({ title: 'Renamed By Catalog' });
  });
});
