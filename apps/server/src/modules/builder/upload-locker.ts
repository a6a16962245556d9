/**
 * tus's Locker over PostgreSQL advisory locks (decision 158), so two app instances never write one
 * upload at once: a PATCH may reach any instance when uploads go straight to the bucket.
 *
 * Session advisory locks belong to a connection, so each instance keeps one dedicated connection
 * for them (never a pooled one, whose next user would inherit the locks). Within an instance the
 * same connection would take a lock twice, so a map of the locks this instance holds keeps its own
 * requests apart first. A request waiting for a lock asks the holder to let go, as tus expects (the
 * holder's request is cancelled after the server's drain time): directly on this instance, with a
 * NOTIFY on others. A lost connection has lost its locks with it, so every holder is cancelled at once.
 */
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import pg from 'pg';
import type { Logger } from '../../lib/logger';

const RELEASE_CHANNEL = 'tunedrop_upload_lock_release';
const POLL_MS = 50;
const NOTIFY_EVERY_MS = 1000;

type Held = { requestRelease: RequestRelease; generation: number };

export type PgUploadLockerOptions = {
  connectionString: string;
  logger: Logger;
  /** How long a request waits for a lock before it fails (tus's default is 30 s). */
  acquireLockTimeoutMs?: number;
};

export class PgUploadLocker implements Locker {
  readonly timeoutMs: number;
  readonly held = new Map<string, Held>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  /** Bumped with every new connection: a lock taken on an older one is already gone. */
  generation = 0;
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  constructor(private readonly options: PgUploadLockerOptions) {
    this.timeoutMs = options.acquireLockTimeoutMs ?? 30_000;
  }

  newLock(id: string): Lock {
    return new PgLock(this, id);
  }

  /** The dedicated connection, opened (and LISTENing) on first use and again after a loss. */
  connection(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('upload locker closed'));
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) {
      this.connecting = (async () => {
        // TCP keepalive: a peer that vanished (a network cut) is noticed and its locks counted as lost.
        const client = new pg.Client({ connectionString: this.options.connectionString, keepAlive: true });
        client.on('error', (error) => this.lost(client, error));
        client.on('end', () => this.lost(client, new Error('upload lock connection ended')));
        client.on('notification', (message) => {
          if (message.channel !== RELEASE_CHANNEL || !message.payload) return;
          const held = this.held.get(message.payload);
          if (held) askToLetGo(held);
        });
        try {
          await client.connect();
          // The server side too: a client that vanished without closing its socket (a machine lost,
          // a network cut) has its session, and so its locks, ended within about a minute, not hours.
          await client.query(
            'set tcp_keepalives_idle = 30; set tcp_keepalives_interval = 10; set tcp_keepalives_count = 3',
          );
          await client.query(`listen ${RELEASE_CHANNEL}`);
        } catch (error) {
          client.end().catch(() => undefined);
          throw error;
        }
        this.generation += 1;
        this.client = client;
        return client;
      })().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.logger.warn({ err: error }, 'upload lock connection lost; cancelling the uploads it held');
    for (const held of this.held.values()) askToLetGo(held);
  }

  async askRelease(id: string): Promise<void> {
    const client = await this.connection();
    await client.query('select pg_notify($1, $2)', [RELEASE_CHANNEL, id]);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

// The lock key: one namespace for upload locks, the upload id hashed into the second half.
const TRY_LOCK = `select pg_try_advisory_lock(hashtext('tunedrop:tus'), hashtext($1)) as "locked"`;
const UNLOCK = `select pg_advisory_unlock(hashtext('tunedrop:tus'), hashtext($1)) as "unlocked"`;

class PgLock implements Lock {
  private entry: Held | null = null;

  constructor(
    private readonly locker: PgUploadLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { locker, id } = this;
    const deadline = Date.now() + locker.timeoutMs;
    let lastNotify = 0;
    for (;;) {
      if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      const local = locker.held.get(id);
      if (local) {
        await local.requestRelease();
      } else {
        // Reserved here before the query, so no other request of this instance goes to PostgreSQL for it.
        const client = await locker.connection();
        // Another request of this instance reserved it while the connection opened.
        if (locker.held.has(id)) continue;
        const entry: Held = { requestRelease, generation: locker.generation };
        locker.held.set(id, entry);
        let isLocked = false;
        try {
          // The dedicated connection is a plain pg client, not the app's database: rows() does not apply.
          const result = await client.query<{ locked: boolean }>(TRY_LOCK, [id]);
          isLocked = result.rows[0]?.locked === true;
        } finally {
          if (!isLocked) locker.held.delete(id);
        }
        if (isLocked) {
          this.entry = entry;
          // Aborted while the query ran: give the lock straight back.
          if (signal.aborted) {
            await this.unlock();
            throw ERRORS.ERR_LOCK_TIMEOUT;
          }
          return;
        }
        if (Date.now() - lastNotify >= NOTIFY_EVERY_MS) {
          lastNotify = Date.now();
          await locker.askRelease(id);
        }
      }
      await sleep(POLL_MS, signal);
    }
  }

  async unlock(): Promise<void> {
    const { locker, id, entry } = this;
    if (!entry) return;
    this.entry = null;
    try {
      // A lock taken on a connection since lost (or closed at shutdown) went with it.
      if (entry.generation === locker.generation && !locker.isClosed) {
        const client = await locker.connection();
        if (entry.generation === locker.generation) await client.query(UNLOCK, [id]);
      }
    } finally {
      if (locker.held.get(id) === entry) locker.held.delete(id);
    }
  }
}

function askToLetGo(held: Held): void {
  Promise.resolve()
    .then(() => held.requestRelease())
    .catch(() => undefined);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
