/** Balance Management API: search, the single edit, and the bulk CSV verify (one query) and apply (one transaction). */

import { randomUUID } from 'node:crypto';
import { parseBalanceCsv } from '@tunedrop/shared/schemas/admin-balances';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { balanceUpdatesLog, profiles, royaltyImports, user, withdrawalRequests } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestUser, signInCookie } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { auditBalances, requestWithdrawal } from '../wallet';
import { verifyBalanceRows } from './service';

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

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

async function funded(balanceCents: number, options: { email?: string; artistName?: string } = {}) {
  const user = await createTestUser(system, options);
  if (balanceCents > 0) await fundUser(system, user.userId, balanceCents);
  return user;
}

describe('GET /api/admin/balances/users', () => {
  it('finds by email or artist name, case-insensitive and partial, at most 10', async () => {
    const tag = `bq${crypto.randomUUID().slice(0, 6)}`;
    for (let index = 0; index < 12; index += 1) {
      await createTestUser(system, { email: `${tag}-${index}@example.com`, artistName: `Someone ${index}` });
    }
    await createTestUser(system, { artistName: `The ${tag.toUpperCase()} Band` });
    const all = await readJson(await asAdmin(`/api/admin/balances/users?q=${tag.toUpperCase()}`));
    expect(all.users).toHaveLength(10);
    const band = await readJson(
      await asAdmin(`/api/admin/balances/users?q=${encodeURIComponent(`${tag} band`)}`),
    );
    expect(band.users).toHaveLength(1);
    expect(band.users[0]).toMatchObject({ artistName: `The ${tag.toUpperCase()} Band`, balanceCents: 0 });
    expect((await readJson(await asAdmin('/api/admin/balances/users?q=_'))).users).toHaveLength(0);
    expect((await asAdmin('/api/admin/balances/users?q=%20%20')).status).toBe(422);
  });
});

describe('PUT /api/admin/balances/users/:id', () => {
  const edit = (userId: string, json: unknown) =>
    asAdmin(`/api/admin/balances/users/${userId}`, { method: 'PUT', json });

  it('raises total earnings by the positive difference and logs a manual row with the note', async () => {
    const user = await funded(5000);
    const response = await edit(user.userId, {
      balanceCents: 6050,
      totalEarningsCents: 5000,
      pendingBalanceCents: 0,
      expectedBalanceCents: 5000,
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({
      email: user.email,
      balanceCents: 6050,
      totalEarningsCents: 6050,
      earningsAddedCents: 1050,
    });
    const [log] = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(and(eq(balanceUpdatesLog.userId, user.userId), eq(balanceUpdatesLog.updateType, 'manual')));
    expect(log).toMatchObject({
      oldBalanceCents: 5000,
      newBalanceCents: 6050,
      adminId: people.admin.userId,
      adminEmail: people.admin.email,
      notes: 'Manual balance update via admin panel (+$10.50 added to total earnings)',
    });

    // Lowering the balance and correcting total earnings: no addition, the plain note.
    await edit(user.userId, { balanceCents: 1000, totalEarningsCents: 7000, pendingBalanceCents: 0 });
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 1000, totalEarningsCents: 7000 });
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(and(eq(balanceUpdatesLog.userId, user.userId), eq(balanceUpdatesLog.updateType, 'manual')));
    expect(logs.map((row) => row.notes)).toContain('Manual balance update via admin panel');
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => mismatch.userId === user.userId)).toEqual([]);
  });

  it('refuses negative values, a hand-made pending balance, and figures that moved since they were read', async () => {
    const user = await funded(10_000);
    await savePaypal(system, user.userId);
    await requestWithdrawal(system.db, user.userId, 60);
    expect(
      (await edit(user.userId, { balanceCents: -1, totalEarningsCents: 0, pendingBalanceCents: 0 })).status,
    ).toBe(422);
    const pending = await edit(user.userId, {
      balanceCents: 4000,
      totalEarningsCents: 10_000,
      pendingBalanceCents: 0,
    });
    expect(pending.status).toBe(409);
    expect((await readJson(pending)).error.code).toBe('pending_not_editable');
    const stale = await edit(user.userId, {
      balanceCents: 5000,
      totalEarningsCents: 10_000,
      pendingBalanceCents: 6000,
      expectedBalanceCents: 10_000,
    });
    expect(stale.status).toBe(409);
    expect(await profileOf(user.userId)).toMatchObject({ balanceCents: 4000, pendingBalanceCents: 6000 });
    const missing = await edit('00000000-0000-4000-8000-000000000000', {
      balanceCents: 1,
      totalEarningsCents: 1,
      pendingBalanceCents: 0,
    });
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.message).toBe('User not found');
  });
});

describe('bulk CSV', () => {
  it('verifies every identifier with one query', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, (_, index) => funded(index * 100)));
    const rows = [
      ...users.map((user, index) => ({
        line: index + 2,
        identifier: index % 2 === 0 ? user.email.toUpperCase() : user.userId,
        newBalanceCents: 999,
      })),
      { line: 7, identifier: 'nobody@example.com', newBalanceCents: 1 },
      { line: 8, identifier: 'not-a-uuid', newBalanceCents: 1 },
      { line: 9, identifier: users[0]?.userId ?? '', newBalanceCents: 5 },
    ];
    const select = vi.spyOn(system.db, 'select');
    const execute = vi.spyOn(system.db, 'execute');
    const verified = await verifyBalanceRows(system.db, { rows });
    expect(select.mock.calls.length + execute.mock.calls.length).toBe(1);
    expect(verified.slice(0, 5).map((row) => row.status)).toEqual(Array(5).fill('verified'));
    expect(verified[0]).toMatchObject({
      userId: users[0]?.userId,
      userEmail: users[0]?.email,
      oldBalanceCents: 0,
    });
    expect(verified[3]).toMatchObject({
      userId: users[3]?.userId,
      oldBalanceCents: 300,
      newBalanceCents: 999,
    });
    expect(verified.slice(5)).toEqual([
      {
        line: 7,
        identifier: 'nobody@example.com',
        newBalanceCents: 1,
        status: 'error',
        error: 'User not found',
      },
      { line: 8, identifier: 'not-a-uuid', newBalanceCents: 1, status: 'error', error: 'User not found' },
      {
        line: 9,
        identifier: users[0]?.userId,
        newBalanceCents: 5,
        status: 'error',
        error: 'This user is already updated on line 2.',
      },
    ]);
  });

  it('goes from a CSV file to applied balances: bulk_csv log rows, earnings raised, audit clean', async () => {
    const a = await funded(1000);
    const b = await funded(5000);
    const parsed = parseBalanceCsv(
      `\uFEFFuser_id_or_email,new_balance\r\n${a.email},25.75\r\n${b.userId},40\r\nghost@example.com,1\r\n`,
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    const verifyResponse = await asAdmin('/api/admin/balances/verify', {
      method: 'POST',
      json: {
        rows: parsed.rows.map(({ line, identifier, newBalanceCents }) => ({
          line,
          identifier,
          newBalanceCents,
        })),
      },
    });
    expect(verifyResponse.status).toBe(200);
    const { rows: verified } = await readJson(verifyResponse);
    expect(verified.map((row: { status: string }) => row.status)).toEqual(['verified', 'verified', 'error']);
    const toApply = verified
      .filter((row: { status: string }) => row.status === 'verified')
      .map((row: { line: number; userId: string; oldBalanceCents: number; newBalanceCents: number }) => ({
        line: row.line,
        userId: row.userId,
        expectedOldBalanceCents: row.oldBalanceCents,
        newBalanceCents: row.newBalanceCents,
      }));
    const applyResponse = await asAdmin('/api/admin/balances/apply', {
      method: 'POST',
      json: { rows: toApply },
    });
    expect(applyResponse.status).toBe(200);
    const applied = await readJson(applyResponse);
    expect(applied.applied).toBe(2);
    expect(await profileOf(a.userId)).toMatchObject({ balanceCents: 2575, totalEarningsCents: 2575 });
    expect(await profileOf(b.userId)).toMatchObject({ balanceCents: 4000, totalEarningsCents: 5000 });
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(and(eq(balanceUpdatesLog.userId, a.userId), eq(balanceUpdatesLog.updateType, 'bulk_csv')));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      oldBalanceCents: 1000,
      newBalanceCents: 2575,
      adminEmail: people.admin.email,
    });
    const { mismatches } = await auditBalances(system.db);
    expect(mismatches.filter((mismatch) => [a.userId, b.userId].includes(mismatch.userId))).toEqual([]);
  });

  it('reports a row whose balance changed since verification instead of overwriting it', async () => {
    const a = await funded(1000);
    const b = await funded(2000);
    const { rows } = await readJson(
      await asAdmin('/api/admin/balances/verify', {
        method: 'POST',
        json: {
          rows: [
            { line: 2, identifier: a.email, newBalanceCents: 1111 },
            { line: 3, identifier: b.email, newBalanceCents: 2222 },
          ],
        },
      }),
    );
    // Someone else changes b's balance in between.
    await fundUser(system, b.userId, 3000);
    const response = await asAdmin('/api/admin/balances/apply', {
      method: 'POST',
      json: {
        rows: rows.map(
          (row: { line: number; userId: string; oldBalanceCents: number; newBalanceCents: number }) => ({
            line: row.line,
            userId: row.userId,
            expectedOldBalanceCents: row.oldBalanceCents,
            newBalanceCents: row.newBalanceCents,
          }),
        ),
      },
    });
    const result = await readJson(response);
    expect(result.applied).toBe(1);
    expect(result.rows[1]).toMatchObject({
      line: 3,
      status: 'stale',
      currentBalanceCents: 3000,
      error: 'The balance changed to $30.00 since it was verified; verify again before applying.',
    });
    expect((await profileOf(a.userId)).balanceCents).toBe(1111);
    expect((await profileOf(b.userId)).balanceCents).toBe(3000);
  });

  it('refuses a user twice in one apply, and bad rows', async () => {
    const a = await funded(0);
    const twice = await asAdmin('/api/admin/balances/apply', {
      method: 'POST',
      json: {
        rows: [
          { line: 2, userId: a.userId, expectedOldBalanceCents: 0, newBalanceCents: 1 },
          { line: 3, userId: a.userId, expectedOldBalanceCents: 0, newBalanceCents: 2 },
        ],
      },
    });
    expect(twice.status).toBe(422);
    const negative = await asAdmin('/api/admin/balances/apply', {
      method: 'POST',
      json: { rows: [{ line: 2, userId: a.userId, expectedOldBalanceCents: 0, newBalanceCents: -5 }] },
    });
    expect(negative.status).toBe(422);
    expect((await asAdmin('/api/admin/balances/verify', { method: 'POST', json: { rows: [] } })).status).toBe(
      422,
    );
    expect((await profileOf(a.userId)).balanceCents).toBe(0);
  });
});

/** `count` users with profiles, written directly (no password hashing): a batch big enough to matter. */
async function manyUsers(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await system.db
    .insert(user)
    .values(
      ids.map((id) => ({ id, name: `Batch ${id}`, email: `batch-${id}@example.com`, emailVerified: true })),
    );
  await system.db
    .insert(profiles)
    .values(
      ids.map((id) => ({ id, email: `batch-${id}@example.com`, fullName: 'Batch', artistName: 'Batch' })),
    );
  return ids;
}

/** Reads GET /api/events until an event arrives (or the time is up). */
async function openEvents(cookie: string) {
  const response = await system.request('/api/events', { cookie });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(
      timeoutMs = 5000,
    ): Promise<{ event: string; changed?: string[]; profile?: { balanceCents: number } }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const split = buffer.indexOf('\n\n');
        if (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const event = block
            .split('\n')
            .find((line) => line.startsWith('event: '))
            ?.slice(7);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (event) return { event, ...JSON.parse(data) };
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event within the time limit');
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('no event within the time limit')), left);
          }),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) throw new Error('stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}

describe('bulk apply in one statement (issue 29, record 172)', () => {
  it('sends one live-update notification for a batch of 150 users, which reaches an open stream', async () => {
    const watcher = await createTestUser(system);
    const cookie = await signInCookie(system, watcher.email, watcher.password);
    const others = await manyUsers(149);
    const stream = await openEvents(cookie);
    expect((await stream.next()).event).toBe('ready');
    const payloads: string[] = [];
    const unlisten = await system.database.listen('profile_changes', (payload) => payloads.push(payload));
    try {
      const response = await asAdmin('/api/admin/balances/apply', {
        method: 'POST',
        json: {
          rows: [watcher.userId, ...others].map((userId, index) => ({
            line: index + 2,
            userId,
            expectedOldBalanceCents: 0,
            newBalanceCents: 100 + index,
          })),
        },
      });
      expect(response.status).toBe(200);
      expect((await readJson(response)).applied).toBe(150);
      const event = await stream.next();
      expect(event.changed).toEqual(expect.arrayContaining(['balance_cents']));
      expect(event.profile?.balanceCents).toBe(100);
      // The next statement is compared row by row again: a name change names its user. Notifications
      // arrive in commit order, so any further one of the batch would come before it: there is none.
      await system.db.update(profiles).set({ artistName: 'Renamed' }).where(eq(profiles.id, watcher.userId));
      await vi.waitFor(() => expect(payloads.length).toBeGreaterThanOrEqual(2));
      expect(payloads.map((payload) => JSON.parse(payload))).toEqual([
        { allUsers: true, changed: ['balance_cents', 'total_earnings_cents'] },
        { userIds: [watcher.userId], changed: ['artist_name'] },
      ]);
    } finally {
      await unlisten();
      await stream.close();
    }
    expect((await profileOf(others[148] ?? '')).balanceCents).toBe(249);
  });

  it('names the users of a small batch, and reports a user who does not exist', async () => {
    const a = await funded(500);
    const payloads: string[] = [];
    const unlisten = await system.database.listen('profile_changes', (payload) => payloads.push(payload));
    try {
      const ghost = randomUUID();
      const response = await asAdmin('/api/admin/balances/apply', {
        method: 'POST',
        json: {
          rows: [
            { line: 2, userId: ghost, expectedOldBalanceCents: 0, newBalanceCents: 5 },
            { line: 3, userId: a.userId, expectedOldBalanceCents: 500, newBalanceCents: 200 },
          ],
        },
      });
      const result = await readJson(response);
      expect(result.applied).toBe(1);
      expect(result.rows).toEqual([
        { line: 2, status: 'not_found', userId: ghost, error: 'User not found' },
        {
          line: 3,
          status: 'applied',
          userId: a.userId,
          userEmail: a.email,
          oldBalanceCents: 500,
          newBalanceCents: 200,
        },
      ]);
      // A fall is not earnings.
      expect(await profileOf(a.userId)).toMatchObject({ balanceCents: 200, totalEarningsCents: 500 });
      await vi.waitFor(() => expect(payloads).toHaveLength(1));
      expect(JSON.parse(payloads[0] ?? '')).toEqual({
        userIds: [a.userId],
        changed: ['balance_cents', 'total_earnings_cents'],
      });
    } finally {
      await unlisten();
    }
  });
});

/** The SQLSTATE of a failed query, whichever driver and wrapper threw it. */
function sqlState(error: unknown): string | undefined {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

async function failure(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return sqlState(error) ?? 'no code';
  }
  return undefined;
}

describe('the balance log still references its users, checked once per statement (migration 0025)', () => {
  const logRow = (userId: string, adminId: string | null) => ({
    userId,
    userEmail: 'someone@example.com',
    oldBalanceCents: 0,
    newBalanceCents: 1,
    adminId,
    updateType: 'manual' as const,
  });

  it('refuses a log row naming a user or an admin that does not exist', async () => {
    const a = await funded(0);
    expect(await failure(system.db.insert(balanceUpdatesLog).values(logRow(randomUUID(), null)))).toBe(
      '23503',
    );
    expect(await failure(system.db.insert(balanceUpdatesLog).values(logRow(a.userId, randomUUID())))).toBe(
      '23503',
    );
    expect(
      await failure(
        system.db
          .insert(balanceUpdatesLog)
          .values([logRow(a.userId, a.userId), logRow(randomUUID(), a.userId)]),
      ),
    ).toBe('23503');
    expect(
      await failure(system.db.insert(balanceUpdatesLog).values(logRow(a.userId, a.userId))),
    ).toBeUndefined();
  });

  it('refuses to delete a user with balance history, and forgets a deleted admin', async () => {
    const artist = await funded(0);
    const formerAdmin = await funded(0);
    await system.db.insert(balanceUpdatesLog).values(logRow(artist.userId, formerAdmin.userId));
    expect(await failure(system.db.delete(user).where(eq(user.id, artist.userId)))).toBe('23503');
    expect(await failure(system.db.delete(user).where(eq(user.id, formerAdmin.userId)))).toBeUndefined();
    const [row] = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(eq(balanceUpdatesLog.userId, artist.userId));
    expect(row?.adminId).toBeNull();
    expect(
      await failure(system.db.update(user).set({ id: randomUUID() }).where(eq(user.id, artist.userId))),
    ).toBe('23503');
  });

  it('checks the withdrawal and report references in the same statement trigger (migration 0062)', async () => {
    const artist = await funded(10_000);
    await savePaypal(system, artist.userId);
    const withdrawal = await requestWithdrawal(system.db, artist.userId, 60);
    expect(
      await failure(
        system.db
          .insert(balanceUpdatesLog)
          .values({ ...logRow(artist.userId, null), withdrawalRequestId: randomUUID() }),
      ),
    ).toBe('23503');
    expect(
      await failure(
        system.db.insert(balanceUpdatesLog).values({
          ...logRow(artist.userId, null),
          updateType: 'royalty_import',
          royaltyImportId: randomUUID(),
        }),
      ),
    ).toBe('23503');
    // A deleted withdrawal request leaves null behind (ON DELETE SET NULL); its id may not change.
    const [request] = await system.db
      .select({ id: withdrawalRequests.id })
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.userId, artist.userId));
    expect(request?.id).toBe(withdrawal.id);
    const id = request?.id ?? '';
    expect(
      await failure(
        system.db.update(withdrawalRequests).set({ id: randomUUID() }).where(eq(withdrawalRequests.id, id)),
      ),
    ).toBe('23503');
    expect(await failure(system.db.delete(withdrawalRequests).where(eq(withdrawalRequests.id, id)))).toBe(
      undefined,
    );
    const named = await system.db
      .select({ withdrawalRequestId: balanceUpdatesLog.withdrawalRequestId })
      .from(balanceUpdatesLog)
      .where(
        and(
          eq(balanceUpdatesLog.userId, artist.userId),
          eq(balanceUpdatesLog.updateType, 'withdrawal_request'),
        ),
      );
    expect(named).toEqual([{ withdrawalRequestId: null }]);
    // A report the log names cannot be deleted (ON DELETE RESTRICT) nor renumbered.
    const importId = randomUUID();
    await system.db.execute(sql`
      insert into royalty_imports (id, file_name, file_sha256, format, status, phase)
      values (${importId}, 'named.csv', ${randomUUID()}, 'csv', 'staged', 'ready')`);
    expect(
      await failure(
        system.db.insert(balanceUpdatesLog).values({
          ...logRow(artist.userId, people.admin.userId),
          updateType: 'royalty_import',
          royaltyImportId: importId,
        }),
      ),
    ).toBeUndefined();
    expect(await failure(system.db.delete(royaltyImports).where(eq(royaltyImports.id, importId)))).toBe(
      '23503',
    );
    expect(
      await failure(
        system.db.update(royaltyImports).set({ id: randomUUID() }).where(eq(royaltyImports.id, importId)),
      ),
    ).toBe('23503');
  });

  it('holds a user whose profile the transaction wrote without a key-share lock, and still refuses their deletion', async () => {
    // On PostgreSQL the delete runs on a second connection while the writer is still open and waits for
    // it; PGlite has one connection, so there the delete follows the writer's commit. Both must refuse it.
    const isConcurrent = system.database.kind === 'postgres';
    const artist = await funded(0);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let logged = () => {};
    const written = new Promise<void>((resolve) => {
      logged = resolve;
    });
    const writer = system.db.transaction(async (tx) => {
      await tx
        .update(profiles)
        .set({ balanceCents: 1, updatedAt: sql`now()` })
        .where(eq(profiles.id, artist.userId));
      await tx.insert(balanceUpdatesLog).values(logRow(artist.userId, null));
      // The profile's row lock holds the user: no key-share lock was taken on the user row.
      const [locks] = await tx
        .execute<{ n: number }>(
          sql`select count(*)::int as n from "user" where id = ${artist.userId} and xmax::text = pg_current_xact_id()::xid::text`,
        )
        .then((result) => (result as unknown as { rows: { n: number }[] }).rows);
      expect(locks?.n).toBe(0);
      logged();
      await gate;
    });
    await written;
    const deleteUser = () => failure(system.db.delete(user).where(eq(user.id, artist.userId)));
    let deletion: Promise<string | undefined>;
    if (isConcurrent) {
      // The delete cascades to the profile and waits for the writer; once it commits, the log names the user.
      deletion = deleteUser();
      // Wait until the delete is blocked on the writer's lock, not for a fixed time.
      await vi.waitFor(
        async () => {
          const [waiting] = await rows<{ n: number }>(
            system.db,
            sql`select count(*)::int as n from pg_stat_activity
                where wait_event_type = 'Lock' and query ilike 'delete from "user"%'`,
          );
          expect(waiting?.n).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      release();
      await writer;
    } else {
      release();
      await writer;
      deletion = deleteUser();
    }
    expect(await deletion).toBe('23503');
    expect((await profileOf(artist.userId)).balanceCents).toBe(1);
  });
});
