import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { createLogger } from '../../lib/logger';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import {
  claimNextMail,
  createOutboxTransport,
  createSmtpTransport,
  deliverPendingMail,
  enqueueMail,
  type MailTransport,
} from './mail';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());

const options = { from: 'Tunedrop <no-reply@tunedrop.local>', domain: 'tunedrop.local' };

describe('mail outbox', () => {
  it('writes queued mail as one .eml file per message and marks it sent', async () => {
    const dir = path.join(system.dataDir, 'outbox-a');
    const transport = createOutboxTransport(dir, createLogger('silent'));
    await enqueueMail(system.db, {
      to: 'artist@example.com',
      subject: 'Confirm your email',
      text: 'Open http://localhost:3000/verify?token=abc to confirm.',
    });
    expect(await deliverPendingMail(system.db, transport, options)).toBe(1);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+\.\d{3}Z-artist@example\.com\.eml$/);
    const message = fs.readFileSync(path.join(dir, files[0] ?? ''), 'utf8');
    expect(message).toContain('To: artist@example.com');
    expect(message).toContain('Subject: Confirm your email');
    expect(message).toContain('http://localhost:3000/verify?token=abc');
    expect(await deliverPendingMail(system.db, transport, options)).toBe(0);
  });

  it('mail written in a rolled-back transaction is never sent', async () => {
    await system.db
      .transaction(async (tx) => {
        await enqueueMail(tx, { to: 'ghost@example.com', subject: 'Never', text: 'never' });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    const rows = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'ghost@example.com'));
    expect(rows).toHaveLength(0);
  });

  it('retries a failed delivery later instead of losing it', async () => {
    let calls = 0;
    const failing: MailTransport = {
      async send() {
        calls += 1;
        throw new Error('SMTP down');
      },
    };
    await enqueueMail(system.db, { to: 'retry@example.com', subject: 'Retry', text: 'retry' });
    expect(await deliverPendingMail(system.db, failing, options)).toBe(0);
    expect(calls).toBe(1);
    const [row] = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'retry@example.com'));
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'SMTP down' });
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('two workers racing deliver each message exactly once', async () => {
    for (let index = 0; index < 10; index += 1) {
      await enqueueMail(system.db, { to: `race-${index}@example.com`, subject: 'Race', text: 'race' });
    }
    const delivered: string[] = [];
    const recording: MailTransport = {
      async send(mail) {
        delivered.push(mail.to);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    };
    await Promise.all([
      deliverPendingMail(system.db, recording, options),
      deliverPendingMail(system.db, recording, options),
    ]);
    const raced = delivered.filter((to) => to.startsWith('race-'));
    expect(raced.sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `race-${index}@example.com`).sort(),
    );
  });
});

/** A mail server that accepts connections and never says a word (no greeting, no answer). */
/** A mail server that accepts connections and never answers; `connected` settles at the first one. */
async function startHungSmtpListener(): Promise<{
  url: string;
  connected: Promise<void>;
  close: () => Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let markConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });
  const server = net.createServer((socket) => {
    markConnected();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connected,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

describe('mail is sent outside database transactions', () => {
  it('a hung SMTP server delays neither /api/health nor other writes, and the message is retried later', async () => {
    const smtp = await startHungSmtpListener();
    try {
      await system.db.delete(mailOutbox);
      await enqueueMail(system.db, { to: 'hung@example.com', subject: 'Hung', text: 'hung' });
      const transport = createSmtpTransport(smtp.url, 2000);
      const delivering = deliverPendingMail(system.db, transport, {
        ...options,
        sendTimeoutMs: 2000,
        batchSize: 1,
      });
      // The worker has claimed the row and waits on the mail server.
      await smtp.connected;

      const health = await timed(() => system.request('/api/health'));
      expect(health.value.status).toBe(200);
      // Generous bound: before the fix these waited for the whole SMTP timeout (the transaction held PGlite).
      expect(health.ms).toBeLessThan(1000);
      const write = await timed(() =>
        enqueueMail(system.db, { to: 'meanwhile@example.com', subject: 'Meanwhile', text: 'still writing' }),
      );
      expect(write.ms).toBeLessThan(1000);

      // The send gives up at its timeout; nothing was sent and the row waits for a later attempt.
      const sending = await timed(() => delivering);
      expect(sending.ms).toBeLessThan(5000);
      const [row] = await system.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, 'hung@example.com'));
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row?.lastError).toMatch(/greeting never received|timeout|timed out|no answer/i);
      expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await smtp.close();
    }
  });

  it('the running system bounds SMTP with SMTP_TIMEOUT_SECONDS', async () => {
    const smtp = await startHungSmtpListener();
    const configured = await createTestSystem({ SMTP_URL: smtp.url, SMTP_TIMEOUT_SECONDS: '1' });
    try {
      const started = performance.now();
      await expect(
        configured.mailTransport.send({
          to: 'a@example.com',
          subject: 'x',
          text: 'x',
          from: options.from,
          messageId: '<x@tunedrop.local>',
        }),
      ).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await configured.close();
      await smtp.close();
    }
  });

  it('a sender that dies after claiming leaves the row to the next worker once its lease ends', async () => {
    await system.db.delete(mailOutbox);
    await enqueueMail(system.db, { to: 'crashed@example.com', subject: 'Crash', text: 'crash' });
    // A worker claims it and then "crashes": it never marks the row.
    const claimed = await claimNextMail(system.db, 400);
    expect(claimed?.recipient).toBe('crashed@example.com');

    const delivered: string[] = [];
    const recording: MailTransport = {
      async send(mail) {
        delivered.push(mail.to);
      },
    };
    // While the lease runs, no other worker takes it.
    expect(await deliverPendingMail(system.db, recording, options)).toBe(0);
    // Once the lease (400 ms) has ended, the next pass takes it.
    await vi.waitFor(async () => expect(await deliverPendingMail(system.db, recording, options)).toBe(1), {
      timeout: 10_000,
      interval: 100,
    });
    expect(delivered).toEqual(['crashed@example.com']);
    const [row] = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'crashed@example.com'));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
