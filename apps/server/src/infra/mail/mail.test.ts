import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { createLogger } from '../../lib/logger';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { createOutboxTransport, deliverPendingMail, enqueueMail, type MailTransport } from './mail';

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
