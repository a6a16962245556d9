/**
 * When runs start by themselves (issue 38): the monthly run on the operator's day, once per month; and in
 * the `immediate` withdrawal mode a run for the accounts whose requests wait, once per request.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutItems, payoutRuns } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { fundUser, saveBank } from '../../test-support/wallet-fixtures';
import { signTaxForm, w9Form } from '../tax';
import { requestWithdrawal } from '../wallet';
import { runScheduledPayouts } from './schedule';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
const actor = { id: null, email: 'system:test' };

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
}, 120_000);

afterAll(async () => {
  await system?.close();
});

async function payee(email: string, cents: number) {
  const person = await system.signedInUser({ plan: 'basic', email });
  await fundUser(system, person.userId, cents);
  await saveBank(system, person.userId);
  await signTaxForm(
    system.db,
    system.config.appSecret,
    w9Form(email),
    { userId: person.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
    actor,
  );
  return person;
}

describe('scheduled and immediate runs', () => {
  it('runs a requested withdrawal at once in the immediate mode, and only once', async () => {
    const person = await payee('immediate@example.com', 6_000);
    await requestWithdrawal(system.db, person.userId, '60');
    // next_run (the default): the request waits for the monthly run.
    expect(await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-10T12:00:00Z') })).toBeNull();
    const saved = await system.request('/api/admin/payouts/schedule', {
      method: 'PUT',
      json: { scheduleDay: null, withdrawalMode: 'immediate' },
      cookie: people.admin.cookie,
    });
    expect(saved.status).toBe(200);
    await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-10T12:05:00Z') });
    const runs = await system.db.select().from(payoutRuns);
    expect(runs.map((run) => run.trigger)).toEqual(['withdrawal']);
    const items = await system.db
      .select()
      .from(payoutItems)
      .where(eq(payoutItems.runId, runs[0]?.id ?? ''));
    expect(items.map((item) => [item.userId, item.state, item.grossCents])).toEqual([
      [person.userId, 'planned', 6_000],
    ]);
    expect(await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-10T12:10:00Z') })).toBeNull();
    expect((await system.db.select().from(payoutRuns)).length).toBe(1);
  });

  it("plans the monthly run on the operator's day, once per month", async () => {
    await payee('monthly@example.com', 9_000);
    await system.request('/api/admin/payouts/schedule', {
      method: 'PUT',
      json: { scheduleDay: 15, withdrawalMode: 'next_run' },
      cookie: people.admin.cookie,
    });
    expect(await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-14T07:00:00Z') })).toBeNull();
    const first = await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-15T07:00:00Z') });
    expect(first).not.toBeNull();
    expect(await runScheduledPayouts(system.db, { actor, now: new Date('2026-11-16T07:00:00Z') })).toBeNull();
    const [run] = await system.db
      .select()
      .from(payoutRuns)
      .where(eq(payoutRuns.id, first ?? ''));
    expect(run).toMatchObject({ trigger: 'schedule', period: '2026-11' });
  });
});
