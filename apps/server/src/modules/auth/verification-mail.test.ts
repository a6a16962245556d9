/**
 * The verification mail (issue 27, record 175): an artist from the pricing flow is told to choose a plan
 * and pay (spec 01 §4); someone signing up from a split invitation, or a payee asking for the link again,
 * reads nothing about plans and lands on the invitation or their balance.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitPayees } from '../../db/schema';
import { firstLink, latestMail } from '../../test-support/auth-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now() % 100000}@example.com`;
const password = 'Str0ng!Tunes';

const signUp = (email: string, extra: Record<string, unknown> = {}) =>
  system.request('/api/auth/signup', {
    method: 'POST',
    json: {
      email,
      fullName: 'Sam Cole',
      artistName: 'Sam',
      password,
      confirmPassword: password,
      plan: 'basic',
      ...extra,
    },
  });

async function mailTo(email: string) {
  const mail = await latestMail(system.db, email);
  const text = mail?.text ?? '';
  return { text, callback: new URL(firstLink(text)).searchParams.get('callbackURL') };
}

describe('the verification mail', () => {
  it('asks an artist from the pricing flow to choose a plan and pay', async () => {
    const email = uniqueEmail('artist');
    expect((await signUp(email)).status).toBe(201);
    const mail = await mailTo(email);
    expect(mail.text).toContain('then you can choose your plan and pay');
    expect(mail.callback).toBe('/checkout?plan=basic');
  });

  it('brings someone invited to a split back to the invitation, with no word of a plan', async () => {
    const email = uniqueEmail('payee');
    const token = randomBytes(32).toString('base64url');
    expect((await signUp(email, { invitation: token })).status).toBe(201);
    const mail = await mailTo(email);
    expect(mail.callback).toBe(`/splits/invitations/${token}`);
    expect(mail.text).toContain('then you come back to the royalty split you were invited to');
    expect(mail.text).not.toMatch(/plan|pay:/i);
  });

  it('brings someone invited to a team back to the team invitation, with no word of a plan', async () => {
    const email = uniqueEmail('member');
    const token = randomBytes(32).toString('base64url');
    expect((await signUp(email, { teamInvitation: token })).status).toBe(201);
    const mail = await mailTo(email);
    expect(mail.callback).toBe(`/team/invitations/${token}`);
    expect(mail.text).toContain('then you come back to the team invitation and join the account');
    expect(mail.text).not.toMatch(/plan|pay:/i);
  });

  it('sent again to a payee, leads to their balance rather than a checkout', async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, owner.userId);
    const email = uniqueEmail('payee');
    await system.db
      .insert(splitPayees)
      .values({ releaseId, email, tokenHash: randomBytes(16).toString('hex'), invitedBy: owner.userId });
    expect((await signUp(email, { invitation: randomBytes(32).toString('base64url') })).status).toBe(201);

    const resent = await system.request('/api/auth/resend-verification', { method: 'POST', json: { email } });
    expect(resent.status).toBe(200);
    const mail = await mailTo(email);
    expect(mail.callback).toBe('/dashboard/royalties');
    expect(mail.text).toContain('then you can see your royalty shares, balance and withdrawals');
    expect(mail.text).not.toMatch(/plan/i);

    // An artist without an invitation still gets the checkout of their plan.
    const artist = uniqueEmail('artist');
    await signUp(artist, { plan: 'pro' });
    await system.request('/api/auth/resend-verification', { method: 'POST', json: { email: artist } });
    expect((await mailTo(artist)).callback).toBe('/checkout?plan=pro');
  });
});
