/**
 * The outbox's log line (issue 22 finding 8, record 147): links in mail are bearer secrets (sign-in,
 * reset, invitations), so they are logged only in development, never with NODE_ENV=production.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutboxTransport } from './mail';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-outbox-log-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Sends one mail with an invitation link through an outbox transport and returns what was logged. */
async function logOf(options: { logLinks?: boolean } | undefined): Promise<string> {
  let logged = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  const transport = createOutboxTransport(dir, pino({ level: 'info' }, sink), options);
  await transport.send({
    to: 'payee@example.com',
    subject: 'You are invited to share royalties on Tunedrop',
    text: 'Accept it here: https://tunedrop.example/splits/invitations/SECRETTOKEN123456789012',
    from: 'Tunedrop <no-reply@tunedrop.example>',
    messageId: '<1@tunedrop.example>',
  });
  return logged;
}

describe('outbox log', () => {
  it('leaves links out of the log in production (and by default)', async () => {
    for (const options of [{ logLinks: false }, undefined]) {
      const logged = await logOf(options);
      expect(logged).toContain('mail written to outbox');
      expect(logged).not.toContain('SECRETTOKEN');
      expect(logged).not.toContain('https://');
    }
  });

  it('logs them for development', async () => {
    expect(await logOf({ logLinks: true })).toContain(
      'https://tunedrop.example/splits/invitations/SECRETTOKEN123456789012',
    );
  });
});
