/**
 * GET /api/events delivers the signed-in user's own profile changes, whichever module makes them,
 * through the database's NOTIFY (PGlite, or PostgreSQL when DATABASE_URL is set).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { profiles } from '../../db/schema';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { grantRole } from '../auth';
import { applyBalanceChange } from '../wallet';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});

afterAll(async () => {
  await system?.close();
});

type SseMessage = { event: string; data: string };

/** Opens the stream and reads it message by message. */
async function openEvents(cookie: string) {
  const response = await system.request('/api/events', { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  const pending: SseMessage[] = [];
  const readMessage = async (): Promise<SseMessage> => {
    for (;;) {
      const queued = pending.shift();
      if (queued) return queued;
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
      let split = buffer.indexOf('\n\n');
      while (split >= 0) {
        const block = buffer.slice(0, split);
        buffer = buffer.slice(split + 2);
        const lines = block.split('\n');
        const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
        const data = lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (event) pending.push({ event, data });
        split = buffer.indexOf('\n\n');
      }
    }
  };
  return {
    async next(timeoutMs = 5000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event within the time limit')), timeoutMs);
      });
      try {
        const message = await Promise.race([readMessage(), timeout]);
        return { event: message.event, ...JSON.parse(message.data) };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => reader.cancel(),
  };
}

async function waitFor(check: () => boolean, timeoutMs = 3000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /api/events', () => {
  it('needs a signed-in user', async () => {
    const response = await system.request('/api/events');
    expect(response.status).toBe(401);
  });

  it('starts with the current state, then pushes plan and subscription changes', async () => {
    const user = await system.signedInUser({ plan: 'basic', subscription: 'inactive' });
    const stream = await openEvents(user.cookie);
    const ready = await stream.next();
    expect(ready).toMatchObject({
      event: 'ready',
      changed: [],
      profile: { plan: 'basic', subscriptionStatus: 'inactive', subscriptionEnd: null, balanceCents: 0 },
      roles: [],
    });

    const end = new Date('2031-05-01T00:00:00.000Z');
    await system.db
      .update(profiles)
      .set({ plan: 'pro', subscriptionStatus: 'active', subscriptionEnd: end })
      .where(eq(profiles.id, user.userId));
    const change = await stream.next();
    expect(change.event).toBe('profile');
    expect(change.changed).toEqual(
      expect.arrayContaining(['plan', 'subscription_status', 'subscription_end']),
    );
    expect(change.profile).toMatchObject({
      plan: 'pro',
      subscriptionStatus: 'active',
      subscriptionEnd: end.toISOString(),
    });
    await stream.close();
  });

  it("pushes another module's balance change and role grants, and nothing of other users", async () => {
    const user = await system.signedInUser({ subscription: 'active' });
    const other = await system.signedInUser({ subscription: 'active' });
    const stream = await openEvents(user.cookie);
    await stream.next();

    await applyBalanceChange(system.db, {
      userId: other.userId,
      newBalanceCents: 999,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'manual',
    });
    await applyBalanceChange(system.db, {
      userId: user.userId,
      newBalanceCents: 12_345,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'manual',
    });
    const balance = await stream.next();
    expect(balance.changed).toEqual(expect.arrayContaining(['balance_cents', 'total_earnings_cents']));
    expect(balance.profile.balanceCents).toBe(12_345);

    await grantRole(system.db, user.userId, 'free_access');
    const roles = await stream.next();
    expect(roles.changed).toEqual(['roles']);
    expect(roles.roles).toEqual(['free_access']);
    await stream.close();
  });

  it('a change that touches nothing the user sees sends nothing', async () => {
    const user = await system.signedInUser({ subscription: 'active' });
    const stream = await openEvents(user.cookie);
    await stream.next();
    await system.db.update(profiles).set({ updatedAt: new Date() }).where(eq(profiles.id, user.userId));
    await system.db.update(profiles).set({ artistName: 'Renamed' }).where(eq(profiles.id, user.userId));
    const next = await stream.next();
    expect(next.changed).toEqual(['artist_name']);
    await stream.close();
  });

  it('lets go of a closed stream', async () => {
    const user = await system.signedInUser();
    const before = system.events.size();
    const stream = await openEvents(user.cookie);
    await stream.next();
    expect(system.events.size()).toBe(before + 1);
    await stream.close();
    await waitFor(() => system.events.size() === before);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'delivers a change committed by another server instance (a separate PostgreSQL connection)',
    async () => {
      const user = await system.signedInUser({ plan: 'basic' });
      const stream = await openEvents(user.cookie);
      await stream.next();
      const otherInstance = await openDatabase({
        databaseUrl: system.config.DATABASE_URL,
        dataDir: 'unused',
      });
      try {
        await otherInstance.db.execute(sql`update profiles set plan = 'pro' where id = ${user.userId}`);
      } finally {
        await otherInstance.close();
      }
      const change = await stream.next();
      expect(change.changed).toEqual(['plan']);
      expect(change.profile.plan).toBe('pro');
      await stream.close();
    },
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'survives losing the listening connection: listens again, resends the state, keeps delivering',
    async () => {
      const user = await system.signedInUser({ plan: 'basic' });
      const stream = await openEvents(user.cookie);
      await stream.next();
      const killed = await system.db.execute(sql`select pg_terminate_backend(pid) as killed
        from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
      expect((killed as unknown as { rows: unknown[] }).rows.length).toBe(1);
      const resync = await stream.next(10_000);
      expect(resync).toMatchObject({ event: 'profile', changed: [], profile: { plan: 'basic' } });
      await system.db.update(profiles).set({ plan: 'pro' }).where(eq(profiles.id, user.userId));
      const change = await stream.next();
      expect(change.profile.plan).toBe('pro');
      await stream.close();
    },
  );
});
