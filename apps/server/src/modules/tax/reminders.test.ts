/**
 * W-8 expiry reminders (issue 38): 90, 30 and 7 days before the end of the third calendar year after
 * signing, one mail each however often the daily run runs; none for a W-9 or a superseded form.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailOutbox, webhookMessages } from '../../db/schema';
import { createTestUser, signInCookie } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cliAuditActor } from '../audit';
import { signTaxForm } from './forms';
import { sendW8Reminders } from './reminders';
import { w8benForm, w9Form } from './tax-fixtures';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

it('mails at 90, 30 and 7 days before a W-8 expires, once each', async () => {
  const w8 = await createTestUser(system, { email: 'w8-reminder@example.com' });
  const w9 = await createTestUser(system, { email: 'w9-reminder@example.com' });
  const sign = (userId: string, form: Parameters<typeof signTaxForm>[2]) =>
    signTaxForm(
      system.db,
      system.config.appSecret,
      form,
      { userId, signedAt: new Date('2026-03-10T12:00:00Z'), address: null, userAgent: null },
      cliAuditActor(),
    );
  await sign(w8.userId, w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }));
  await sign(w9.userId, w9Form('Uma States'));
  // The W-8 payee's webhook endpoint gets payee.tax_form.expiring with each reminder (issue 40).
  const hook = await system.request('/api/webhooks/endpoints', {
    method: 'POST',
    cookie: await signInCookie(system, w8.email, w8.password),
    json: { url: 'http://127.0.0.1:9/hooks' },
  });
  expect(hook.status).toBe(201);
  const at = (day: string) => sendW8Reminders(system.db, 'https://app.test', new Date(`${day}T07:00:00Z`));
  const subjects = async (email: string) =>
    (
      await system.db
        .select({ subject: mailOutbox.subject })
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, email))
    ).map((row) => row.subject);

  expect(await at('2029-10-01')).toBe(0); // 91 days before 2029-12-31
  expect(await at('2029-10-02')).toBe(1); // 90 days
  expect(await at('2029-10-02')).toBe(0);
  expect(await at('2029-11-15')).toBe(0);
  expect(await at('2029-12-01')).toBe(1); // 30 days
  expect(await at('2029-12-24')).toBe(1); // 7 days
  expect(await at('2029-12-30')).toBe(0);
  expect(await subjects('w8-reminder@example.com')).toEqual([
    'Your Form W-8BEN expires on 2029-12-31',
    'Your Form W-8BEN expires on 2029-12-31',
    'Your Form W-8BEN expires on 2029-12-31',
  ]);
  expect(await subjects('w9-reminder@example.com')).toEqual([]);
  const events = await system.db
    .select({ payload: webhookMessages.payload })
    .from(webhookMessages)
    .where(eq(webhookMessages.accountId, w8.userId))
    .orderBy(webhookMessages.createdAt);
  expect(events.map((row) => row.payload.type)).toEqual(Array(3).fill('payee.tax_form.expiring'));
  expect(events.map((row) => (row.payload.data as { daysBefore: number }).daysBefore)).toEqual([90, 30, 7]);
  expect(events[0]?.payload.data).toMatchObject({ kind: 'w8ben', expiresOn: '2029-12-31' });
});
