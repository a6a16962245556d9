/**
 * The tus locker over PostgreSQL advisory locks (decision 158): two lockers stand for two app
 * instances, each with its own dedicated connection. PostgreSQL only (on PGlite one process takes
 * every request and tus's in-process locker is used).
 */
import { randomUUID } from 'node:crypto';
import { ERRORS } from '@tus/utils';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/logger';
import { PgUploadLocker } from './upload-locker';

const url = process.env.DATABASE_URL as string;
const lockers: PgUploadLocker[] = [];
const newLocker = (acquireLockTimeoutMs = 5000) => {
  const locker = new PgUploadLocker({
    connectionString: url,
    logger: createLogger('silent'),
    acquireLockTimeoutMs,
  });
  lockers.push(locker);
  return locker;
};
afterEach(async () => {
  await Promise.all(lockers.splice(0).map((locker) => locker.close()));
});

const id = () => randomUUID().replace(/-/g, '');
const never = () => new AbortController().signal;

describe.skipIf(!url)('PostgreSQL upload locker', () => {
  it('makes a request on another instance wait, asks the holder to let go, and hands the lock over on unlock', async () => {
    const [a, b] = [newLocker(), newLocker()];
    const upload = id();
    let isAsked = false;
    const held = a.newLock(upload);
    await held.lock(never(), () => {
      isAsked = true;
    });
    let isAcquired = false;
    const waiting = b
      .newLock(upload)
      .lock(never(), () => undefined)
      .then(() => {
        isAcquired = true;
      });
    // The waiter's NOTIFY reaches the holder's instance, which would cancel its request; it still waits.
    await vi.waitFor(() => expect(isAsked).toBe(true), { timeout: 5000 });
    expect(isAcquired).toBe(false);
    await held.unlock();
    await waiting;
    expect(isAcquired).toBe(true);
  });

  it('keeps two requests of one instance apart too (one connection would take the lock twice)', async () => {
    const locker = newLocker();
    const upload = id();
    let asked = 0;
    const first = locker.newLock(upload);
    await first.lock(never(), () => {
      asked += 1;
    });
    let isAcquired = false;
    const second = locker.newLock(upload);
    const waiting = second
      .lock(never(), () => undefined)
      .then(() => {
        isAcquired = true;
      });
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0), { timeout: 5000 });
    expect(isAcquired).toBe(false);
    await first.unlock();
    await waiting;
    expect(isAcquired).toBe(true);
    await second.unlock();
  });

  it('gives up after its timeout, or at once when the request is aborted, and the holder keeps the lock', async () => {
    const [a, b] = [newLocker(), newLocker(300)];
    const upload = id();
    const held = a.newLock(upload);
    await held.lock(never(), () => undefined);
    const started = Date.now();
    await expect(b.newLock(upload).lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);

    const controller = new AbortController();
    const aborted = newLocker(30_000)
      .newLock(upload)
      .lock(controller.signal, () => undefined);
    setTimeout(() => controller.abort(), 100);
    await expect(aborted).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);

    // Still held by a: a fresh attempt from elsewhere times out too.
    await expect(
      newLocker(200)
        .newLock(upload)
        .lock(never(), () => undefined),
    ).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await held.unlock();
    const after = newLocker(1000).newLock(upload);
    await after.lock(never(), () => undefined);
    await after.unlock();
  });

  it('cancels the holder when its connection is lost (its locks went with it), and another instance takes the lock', async () => {
    const [a, b] = [newLocker(), newLocker()];
    const upload = id();
    let isCancelled = false;
    const held = a.newLock(upload);
    await held.lock(never(), () => {
      isCancelled = true;
    });
    const backend = await (await a.connection()).query<{ pid: number }>('select pg_backend_pid() as pid');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [backend.rows[0]?.pid]);
    } finally {
      await admin.end();
    }
    const taken = b.newLock(upload);
    await taken.lock(never(), () => undefined);
    expect(isCancelled).toBe(true);
    // The holder's unlock after the loss does not touch the new connection's locks.
    await held.unlock();
    await expect(
      newLocker(200)
        .newLock(upload)
        .lock(never(), () => undefined),
    ).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await taken.unlock();
  });
});
