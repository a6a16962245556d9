/**
 * Split invitations (issue 22, findings 4 and 8; record 147) on the test database: mails limited per
 * sending account and per invited address (counted in the database, 429 with the wait), a lapsed owner
 * cannot send any, the sender's texts are quoted data under a fixed subject, and only the invited address's
 * own verified account can accept.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, profiles, splitPayees, user } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
type Person = { userId: string; cookie: string; email: string };

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

async function ownerWithRelease(options: Parameters<TestSystem['signedInUser']>[0] = {}) {
  const owner = await system.signedInUser({ plan: 'basic', ...options });
  const { releaseId } = await createTestRelease(system, owner.userId, {
    status: 'live',
    title: 'Tide Lines',
  });
  return { owner, releaseId };
}

const invite = (cookie: string, releaseId: string, emails: string[]) =>
  system.request(`/api/releases/${releaseId}/splits`, {
    method: 'PUT',
    cookie,
    json: {
      trackId: null,
      ownerPercent: String(100 - emails.length),
      payees: emails.map((email) => ({ email, percent: '1' })),
    },
  });

const mailsTo = (email: string) =>
  system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email.toLowerCase()));

async function tokenFor(email: string): Promise<string> {
  const [mail] = await mailsTo(email);
  const match = /\/splits\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
  if (!match?.[1]) throw new Error(`no invitation mail for ${email}`);
  return match[1];
}

describe('invitation limits', () => {
  it('refuses a 21st invitation within the hour with 429 and the wait, and sends nothing for it', async () => {
    const { owner, releaseId } = await ownerWithRelease();
    const first = Array.from({ length: 20 }, (_, index) => `hour-${index}@example.com`);
    expect((await invite(owner.cookie, releaseId, first)).status).toBe(200);
    // A new address on another of the owner's releases counts against the same account.
    const { releaseId: second } = await createTestRelease(system, owner.userId, { status: 'live' });
    const refused = await invite(owner.cookie, second, ['hour-20@example.com']);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await readJson(refused)).error.message).toBe(
      'You can send at most 20 split invitations per hour. Please wait 1 hour before inviting more people.',
    );
    expect(await mailsTo('hour-20@example.com')).toHaveLength(0);
    const payees = await system.db.select().from(splitPayees).where(eq(splitPayees.releaseId, second));
    expect(payees).toHaveLength(0);
    // Re-saving the first release with the same payees sends no mail, so it is not limited.
    expect((await invite(owner.cookie, releaseId, first)).status).toBe(200);
  });

  it('counts the sends recorded in the database over 24 hours, whatever restarted in between', async () => {
    const { owner, releaseId } = await ownerWithRelease();
    // 45 invitations sent three hours ago (by an instance since stopped): rows, not process memory.
    await system.db.execute(sql`
      insert into split_invitation_sends (sender_id, email, created_at)
      select ${owner.userId}, 'earlier-' || n || '@example.com', now() - interval '3 hours'
        from generate_series(1, 45) n`);
    const six = Array.from({ length: 6 }, (_, index) => `day-${index}@example.com`);
    const refused = await invite(owner.cookie, releaseId, six);
    expect(refused.status).toBe(429);
    expect((await readJson(refused)).error.message).toBe(
      'You can send at most 50 split invitations per 24 hours. Please wait 21 hours before inviting more people.',
    );
    expect((await invite(owner.cookie, releaseId, six.slice(0, 5))).status).toBe(200);
  });

  it('lets one address be invited three times a day, by anyone, case-insensitively', async () => {
    const target = 'popular.person@example.com';
    for (let index = 0; index < 3; index += 1) {
      const { owner, releaseId } = await ownerWithRelease();
      expect((await invite(owner.cookie, releaseId, [target])).status).toBe(200);
    }
    const { owner, releaseId } = await ownerWithRelease();
    const refused = await invite(owner.cookie, releaseId, ['Popular.Person@Example.com']);
    expect(refused.status).toBe(429);
    expect((await readJson(refused)).error.message).toBe(
      'popular.person@example.com has been invited too many times recently. Please wait 24 hours before inviting this address again.',
    );
    expect(await mailsTo(target)).toHaveLength(3);
  });

  it('counts concurrent saves against each other: five owners racing for one address, three get through', async () => {
    const owners = await Promise.all(Array.from({ length: 5 }, () => ownerWithRelease()));
    const answers = await Promise.all(
      owners.map(({ owner, releaseId }) => invite(owner.cookie, releaseId, ['raced.address@example.com'])),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(await mailsTo('raced.address@example.com')).toHaveLength(3);
  });

  it('refuses a lapsed owner (402, the gate message) and sends no mail; withdrawing stays open', async () => {
    const { owner, releaseId } = await ownerWithRelease();
    expect((await invite(owner.cookie, releaseId, ['kept@example.com'])).status).toBe(200);
    await system.db
      .update(profiles)
      .set({ subscriptionStatus: 'canceled', subscriptionEnd: new Date(Date.now() - 86_400_000) })
      .where(eq(profiles.id, owner.userId));
    const refused = await invite(owner.cookie, releaseId, ['kept@example.com', 'lapsed.invite@example.com']);
    expect(refused.status).toBe(402);
    expect((await readJson(refused)).error.message).toBe('Please subscribe to access the dashboard.');
    expect(await mailsTo('lapsed.invite@example.com')).toHaveLength(0);
    const [payee] = await system.db.select().from(splitPayees).where(eq(splitPayees.releaseId, releaseId));
    const withdrawn = await system.request(`/api/releases/${releaseId}/splits/payees/${payee?.id}/withdraw`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(withdrawn.status).toBe(200);
    const never = await ownerWithRelease({ subscription: 'inactive' });
    expect((await invite(never.owner.cookie, never.releaseId, ['never@example.com'])).status).toBe(402);
  });
});

describe('invitation mail', () => {
  it('has a fixed subject and quotes a hostile artist name and title as inert data in the body', async () => {
    const hostile = 'URGENT: claim your $5,000 royalty at https://evil.example/claim';
    const owner = await system.signedInUser({ plan: 'basic', artistName: hostile });
    const { releaseId } = await createTestRelease(system, owner.userId, {
      status: 'live',
      title: 'Visit www.evil.example "now"',
    });
    expect((await invite(owner.cookie, releaseId, ['hostile.target@example.com'])).status).toBe(200);
    const [mail] = await mailsTo('hostile.target@example.com');
    expect(mail?.subject).toBe('You are invited to share royalties on Tunedrop');
    const body = mail?.textBody ?? '';
    expect(body.split('\n')[0]).toBe('Hi,');
    expect(body).toContain(
      '  Artist name: "URGENT: claim your $5,000 royalty at https[:]//evil[.]example/claim"',
    );
    expect(body).toContain(`  Release: "Visit www[.]evil[.]example 'now'"`);
    expect(body).not.toContain('evil.example');
    // The invitation link is the only link in the mail.
    expect(body.match(/https?:\/\/\S+/g)).toEqual([
      expect.stringMatching(/^http:\/\/localhost:3000\/splits\/invitations\/[A-Za-z0-9_-]+$/),
    ]);
  });
});

describe('accepting', () => {
  let owner: Person;
  let releaseId: string;
  let token: string;
  const invited = 'invited.payee@example.com';

  beforeAll(async () => {
    ({ owner, releaseId } = await ownerWithRelease());
    expect((await invite(owner.cookie, releaseId, ['Invited.Payee@Example.com'])).status).toBe(200);
    token = await tokenFor(invited);
  });

  it('refuses another signed-in artist holding the link, naming the invited address masked', async () => {
    const other = await system.signedInUser({ plan: 'pro' });
    const shown = await readJson(
      await system.request(`/api/split-invitations/${token}`, { cookie: other.cookie }),
    );
    expect(shown.email).toBe('i•••@example.com');
    expect(shown.acceptance).toEqual({
      status: 'other_account',
      message: 'This invitation was sent to i•••@example.com. Sign in with that email address to accept it.',
    });
    const refused = await system.request(`/api/split-invitations/${token}/accept`, {
      method: 'POST',
      cookie: other.cookie,
    });
    expect(refused.status).toBe(403);
    expect(await readJson(refused)).toMatchObject({
      error: {
        code: 'invitation_other_account',
        message:
          'This invitation was sent to i•••@example.com. Sign in with that email address to accept it.',
      },
    });
    const [payee] = await system.db.select().from(splitPayees).where(eq(splitPayees.releaseId, releaseId));
    expect(payee).toMatchObject({ status: 'pending', userId: null });
  });

  it('refuses the invited address while it is not verified, then accepts it once verified', async () => {
    const payee = await system.signedInUser({ subscription: 'inactive', email: invited });
    await system.db.update(user).set({ emailVerified: false }).where(eq(user.id, payee.userId));
    const unverified = await system.request(`/api/split-invitations/${token}/accept`, {
      method: 'POST',
      cookie: payee.cookie,
    });
    expect(unverified.status).toBe(403);
    expect((await readJson(unverified)).error.message).toBe(
      'Confirm your email address first: open the link in the confirmation mail we sent you, then accept this invitation.',
    );
    await system.db.update(user).set({ emailVerified: true }).where(eq(user.id, payee.userId));
    const shown = await readJson(
      await system.request(`/api/split-invitations/${token}`, { cookie: payee.cookie }),
    );
    expect(shown).toMatchObject({ email: invited, acceptance: { status: 'ready', message: null } });
    const accepted = await system.request(`/api/split-invitations/${token}/accept`, {
      method: 'POST',
      cookie: payee.cookie,
    });
    expect(accepted.status).toBe(200);
    const [row] = await system.db.select().from(splitPayees).where(eq(splitPayees.releaseId, releaseId));
    expect(row).toMatchObject({ status: 'accepted', userId: payee.userId });
  });
});
