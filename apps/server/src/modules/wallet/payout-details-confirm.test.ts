/**
 * A change of payout details confirmed by email (issue 38, record 314), over HTTP on the real database: the
 * new details wait and a run never uses them; the owner's mailed link (single use, expiring, the token kept
 * only as a hash) confirms them and starts the hold; an expired, used, replaced or someone else's link is
 * refused with a plain message; Resend mails a new link and retires the old one.
 */
import { PAYOUT_CONFIRM_ERRORS, PAYOUT_CONFIRM_TEXTS } from '@tunedrop/shared/schemas/payout-details';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, payoutDetailChanges, profiles, withdrawalRequests } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { joinTeam } from '../../test-support/team-fixtures';
import { fundUser, saveBank } from '../../test-support/wallet-fixtures';
import { startPayoutRun, withholdingFor } from '../payouts';
import { signTaxForm, w9Form } from '../tax';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let finance: Person & { acting: string };
let stranger: Person;

const joinAsFinance = () => joinTeam(system, owner, 'finance');

const setPaypal = (cookie: string, email: string) =>
  system.request('/api/wallet/payment-settings', {
    method: 'PUT',
    cookie,
    json: { payment_method: 'paypal', payment_details: { paypal_email: email } },
  });
const confirm = (cookie: string, token: string) =>
  system.request('/api/wallet/payment-settings/confirm', { method: 'POST', cookie, json: { token } });
const wallet = async (cookie: string) => readJson(await system.request('/api/wallet', { cookie }));

/** The token of the newest confirmation link mailed to `to`. */
async function lastLinkToken(to: string): Promise<string> {
  const mails = await system.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, to), eq(mailOutbox.subject, PAYOUT_CONFIRM_TEXTS.mailSubject)));
  const text = mails.at(-1)?.textBody ?? '';
  const token = text.match(/\/dashboard\/payouts\?confirm=([\w-]+)/)?.[1];
  if (!token) throw new Error(`no confirmation link mailed to ${to}`);
  return token;
}

beforeAll(async () => {
  system = await createTestSystem({ PAYOUT_HOLD_HOURS: '48' });
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Confirming Owner' });
  stranger = await system.signedInUser({ plan: 'pro' });
  await fundUser(system, owner.userId, 300_00);
  await saveBank(system, owner.userId);
  await signTaxForm(
    system.db,
    system.config.appSecret,
    w9Form('Confirming Owner'),
    { userId: owner.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
    { id: null, email: 'test' },
  );
  finance = await joinAsFinance();
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('a change of payout details waits for the owner’s confirmation by email', () => {
  it('keeps the old details in force, says so, mails the owner a link and stores only its hash', async () => {
    const saved = await setPaypal(finance.acting, 'thief@example.com');
    expect(saved.status).toBe(200);
    const body = await readJson(saved);
    expect(body.pendingConfirmation).toMatchObject({ sentTo: expect.stringMatching(/^.•••@/) });

    const summary = await wallet(finance.acting);
    expect(summary.paymentMethod).toBe('bank');
    expect(summary.payoutHoldUntil).toBeNull();
    expect(summary.pendingPaymentDetails.details).toMatchObject({ method: 'paypal' });

    const token = await lastLinkToken(owner.email);
    const [row] = await system.db.select().from(payoutDetailChanges);
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.tokenHash).not.toContain(token);
    const [audited] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'wallet.payment_settings'), eq(auditLog.actorId, finance.userId)));
    expect(audited?.after).toMatchObject({ inForce: 'once the owner confirms it by email' });
  });

  it('a run never uses unconfirmed details: the Payouts page and the run pay the bank account in force', async () => {
    const page = await readJson(await system.request('/api/payouts', { cookie: owner.cookie }));
    expect(page).toMatchObject({ method: 'bank', blockers: [] });
    const { preview } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
      accountIds: [owner.userId],
    });
    expect(preview.items[0]).toMatchObject({ provider: 'bank-csv', blocked: null });
    const [request] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.userId, owner.userId));
    expect(request?.paymentMethod).toBe('bank');
  });

  it('refuses another person’s use of the link, and leaves it working for the owner', async () => {
    const token = await lastLinkToken(owner.email);
    for (const cookie of [stranger.cookie, finance.acting]) {
      const refused = await confirm(cookie, token);
      expect(refused.status).toBe(403);
      expect((await readJson(refused)).error).toMatchObject({
        code: 'payout_link_not_yours',
        message: PAYOUT_CONFIRM_ERRORS.payout_link_not_yours,
      });
    }
    expect((await wallet(owner.cookie)).pendingPaymentDetails).not.toBeNull();
  });

  it('refuses an expired link; Resend mails a new one and the old one is refused', async () => {
    const first = await lastLinkToken(owner.email);
    await system.db.update(payoutDetailChanges).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await confirm(owner.cookie, first);
    expect(expired.status).toBe(409);
    expect((await readJson(expired)).error).toMatchObject({
      code: 'payout_link_expired',
      message: PAYOUT_CONFIRM_ERRORS.payout_link_expired,
    });
    expect((await wallet(owner.cookie)).paymentMethod).toBe('bank');

    const resent = await system.request('/api/wallet/payment-settings/resend', {
      method: 'POST',
      cookie: finance.acting,
    });
    expect(resent.status).toBe(200);
    const second = await lastLinkToken(owner.email);
    expect(second).not.toBe(first);
    // Once resent, the next link waits a minute: Resend cannot flood the owner's inbox.
    const tooSoon = await system.request('/api/wallet/payment-settings/resend', {
      method: 'POST',
      cookie: finance.acting,
    });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(50);
    expect((await readJson(tooSoon)).error.code).toBe('rate_limited');
    expect(await lastLinkToken(owner.email)).toBe(second);
    const old = await confirm(owner.cookie, first);
    expect(old.status).toBe(409);
    expect((await readJson(old)).error.code).toBe('payout_link_used');
  });

  it('the owner confirms: the new details take effect, the hold starts now, audited; the link works once', async () => {
    const token = await lastLinkToken(owner.email);
    const before = Date.now();
    const confirmed = await confirm(owner.cookie, token);
    expect(confirmed.status).toBe(200);
    const body = await readJson(confirmed);
    expect(body.paymentDetails).toMatchObject({ method: 'paypal' });
    const until = new Date(body.payoutHoldUntil).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 48 * 3_600_000);
    expect(until).toBeLessThan(Date.now() + 48 * 3_600_000 + 1000);

    const summary = await wallet(owner.cookie);
    expect(summary).toMatchObject({ paymentMethod: 'paypal', pendingPaymentDetails: null });
    const [audited] = await system.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'wallet.payment_settings_confirm'));
    expect(audited).toMatchObject({ actorId: owner.userId, subjectUserId: owner.userId });

    const again = await confirm(owner.cookie, token);
    expect(again.status).toBe(409);
    expect((await readJson(again)).error).toMatchObject({
      code: 'payout_link_used',
      message: PAYOUT_CONFIRM_ERRORS.payout_link_used,
    });
    const [account] = await system.db
      .select({ hold: profiles.payoutHoldUntil })
      .from(profiles)
      .where(eq(profiles.id, owner.userId));
    expect(account?.hold?.getTime()).toBe(until);
  });

  it('Resend with nothing waiting says so', async () => {
    const resent = await system.request('/api/wallet/payment-settings/resend', {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(resent.status).toBe(409);
    expect((await readJson(resent)).error.code).toBe('payout_nothing_pending');
  });
});
