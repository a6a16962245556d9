/**
 * Issue 22 finding 15: SFTP host keys are pinned (record 153). A real OpenSSH sshd, restarted with a
 * second host key, and an impostor SSH server that captures any password offered to it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import { eq } from 'drizzle-orm';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { deliveries, deliveryTargets } from '../../db/schema';
import { type DeliveryBed, STORE_DPID, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { readJson, type TestSystem } from '../../test-support/harness';
import {
  fingerprintOf,
  freePort,
  readDeliveries,
  type SftpServer,
  startSftpServer,
} from '../../test-support/sftp';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
let system: TestSystem;
let sftp: SftpServer;
let people: DeliveryBed['people'];
const DPID = STORE_DPID;

beforeAll(async () => {
  // One after the other: had one failed inside Promise.all, afterAll could not stop the other (an orphaned sshd).
  sftp = await startSftpServer();
  bed = await startDeliveryBed();
  ({ system, people } = bed);
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await sftp?.stop();
});

const tempDir = (prefix: string) => bed.tempDir(prefix);
const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

async function addTarget(body: Record<string, unknown>) {
  const response = await admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: { dpid: DPID, platforms: ['spotify'], profile: 'release', ...body },
  });
  const json = await readJson(response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json as { id: string; name: string; hostKeyFingerprint: string | null };
}

async function targetView(id: string) {
  const list = await readJson(await admin('/api/admin/delivery/targets'));
  return list.items.find((t: { id: string }) => t.id === id);
}

const testConnection = async (id: string) =>
  readJson(await admin(`/api/admin/delivery/targets/${id}/test`, { method: 'POST' }));

/** sshd's DEBUG1 log has one `userauth-request` line per authentication request a client makes. */
const authRequests = (log: string) => log.split('\n').filter((line) => /userauth-request/.test(line));

/** Only this target serves Spotify, so an approval queues exactly one delivery, to it. */
async function onlyTarget(id: string) {
  for (const row of await system.db.select().from(deliveryTargets)) {
    await system.db
      .update(deliveryTargets)
      .set({ enabled: row.id === id })
      .where(eq(deliveryTargets.id, row.id));
  }
}

async function approveNewRelease() {
  const [releaseId] = await bed.approvedReleases(1, { distributionStores: ['spotify'] });
  return releaseId ?? '';
}

describe('SFTP host keys', () => {
  it('records the key at the first connection, then refuses a changed key before authenticating', async () => {
    const target = await addTarget({
      name: 'Pinned store',
      url: sftp.url(),
      privateKey: sftp.privateKey,
    });
    // Added enabled, it was tested first (issue 26): that first connection pinned the key it saw.
    const first = sftp.hostKeyFingerprint();
    expect(target.hostKeyFingerprint).toBe(first);
    expect(await testConnection(target.id)).toMatchObject({ ok: true });
    expect(await targetView(target.id)).toMatchObject({ hostKeyFingerprint: first });
    expect(authRequests(sftp.log()).length).toBeGreaterThan(0); // the log does show authentication

    // The server now answers with another key (a new machine at that address, or an interceptor).
    await sftp.restart({ newHostKey: true });
    const second = sftp.hostKeyFingerprint();
    expect(second).not.toBe(first);
    const logBefore = sftp.log().length;
    const refused = await testConnection(target.id);
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe(
      `The host key of 127.0.0.1:${sftp.port} changed (target "Pinned store"): expected ${first}, received ${second}. Nothing was sent. If the store really changed its key, enter the new fingerprint on the target.`,
    );
    // No authentication request reached sshd after the key exchange.
    const logAfter = sftp.log().slice(logBefore);
    expect(logAfter).toMatch(/Connection from 127\.0\.0\.1/);
    expect(authRequests(logAfter)).toEqual([]);
    // The pin stays; deliveries fail with the same sentence and nothing lands in the store.
    expect(await targetView(target.id)).toMatchObject({ hostKeyFingerprint: first });
    await onlyTarget(target.id);
    const releaseId = await approveNewRelease();
    await runDeliveryOnce(system, { retryBaseMs: 60_000, pollAcks: false });
    const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(row?.state).toBe('queued');
    expect(row?.lastError).toMatch(/^The host key of 127\.0\.0\.1:\d+ changed \(target "Pinned store"\)/);
    expect(readDeliveries(sftp.root)).toEqual([]);
    expect(authRequests(sftp.log().slice(logBefore))).toEqual([]);

    // The admin confirms the new key on the target: deliveries go again.
    const patched = await admin(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      json: { hostKey: second },
    });
    expect(patched.status).toBe(200);
    expect(await testConnection(target.id)).toMatchObject({ ok: true });
  });

  it('never offers the password in the URL to a server with another key (an impostor captures nothing)', async () => {
    const dir = tempDir(path.join(os.tmpdir(), 'tunedrop-impostor-'));
    const keyFile = path.join(dir, 'impostor_key');
    const { spawnSync } = await import('node:child_process');
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const offered: { method: string; password?: string }[] = [];
    const impostor = new ssh2.Server({ hostKeys: [fs.readFileSync(keyFile)] }, (client) => {
      client.on('authentication', (ctx) => {
        offered.push({
          method: ctx.method,
          ...(ctx.method === 'password' ? { password: ctx.password } : {}),
        });
        ctx.reject(['password']);
      });
      client.on('error', () => undefined);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => impostor.listen(port, '127.0.0.1', resolve));
    try {
      const url = `sftp://store:hunter2-secret@127.0.0.1:${port}/in`;
      // Pinned to the real store's key: the impostor's is refused in the key exchange.
      const pinned = await addTarget({
        name: 'Pinned elsewhere',
        url,
        hostKey: sftp.hostKeyFingerprint(),
        enabled: false, // enabled, the add's own test would refuse it
      });
      const refused = await testConnection(pinned.id);
      expect(refused.message).toMatch(
        /^The host key of 127\.0\.0\.1:\d+ changed \(target "Pinned elsewhere"\)/,
      );
      expect(refused.message).toContain(`received ${fingerprintOf(`${keyFile}.pub`)}`);
      expect(offered).toEqual([]);
      // Control: pinned to the impostor's own key, the same URL does offer its password there.
      const trusting = await addTarget({
        name: 'Pinned to impostor',
        url,
        hostKey: fingerprintOf(`${keyFile}.pub`),
        enabled: false,
      });
      const login = await testConnection(trusting.id);
      expect(login.message).toMatch(/Login refused/);
      expect(offered).toContainEqual({ method: 'password', password: 'hunter2-secret' });
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('delivery:target:add --host-key pins the given key: a wrong one refuses, the right one delivers', async () => {
    const add = cliCommands['delivery:target:add'];
    if (!add) throw new Error('delivery:target:add is not registered');
    const base = { url: sftp.url(), dpid: DPID, platforms: 'spotify' };
    await expect(
      add.run(system, [], { ...base, name: 'Bad key', 'host-key': 'SHA256:short' }),
    ).rejects.toThrow(`--host-key: ${DELIVERY_MESSAGES.hostKeyInvalid}`);
    const keyFile = path.join(tempDir(path.join(os.tmpdir(), 'tunedrop-key-')), 'other');
    const { spawnSync } = await import('node:child_process');
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const wrong = fingerprintOf(`${keyFile}.pub`);
    // The connection test meets the other key: refused, unless added disabled.
    await expect(
      add.run(system, [], { ...base, name: 'Wrong key', key: sftp.privateKeyFile, 'host-key': wrong }),
    ).rejects.toThrow(`expected ${wrong}, received ${sftp.hostKeyFingerprint()}`);
    const added = await add.run(system, [], {
      ...base,
      name: 'Wrong key',
      key: sftp.privateKeyFile,
      'host-key': wrong,
      disabled: true,
    });
    expect(added).toMatch(
      new RegExp(`host key ${wrong.replace(/[+/]/g, '\\$&')}\nDisabled \\(connection test: `),
    );
    const [wrongTarget] = await system.db
      .select()
      .from(deliveryTargets)
      .where(eq(deliveryTargets.name, 'Wrong key'));
    expect(wrongTarget?.hostKeySha256).toBe(wrong);
    await onlyTarget(wrongTarget?.id as string);
    const logBefore = sftp.log().length;
    const releaseId = await approveNewRelease();
    await runDeliveryOnce(system, { retryBaseMs: 60_000, pollAcks: false });
    const [refused] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(refused?.lastError).toContain(`expected ${wrong}, received ${sftp.hostKeyFingerprint()}`);
    expect(authRequests(sftp.log().slice(logBefore))).toEqual([]);

    // The whole `ssh-keygen -l` line is accepted, as an admin would paste it.
    const line = spawnSync(
      'ssh-keygen',
      ['-l', '-f', path.join(path.dirname(sftp.privateKeyFile), 'host_key.pub')],
      {
        encoding: 'utf8',
      },
    ).stdout.trim();
    await add.run(system, [], { ...base, name: 'Right key', key: sftp.privateKeyFile, 'host-key': line });
    const [right] = await system.db
      .select()
      .from(deliveryTargets)
      .where(eq(deliveryTargets.name, 'Right key'));
    expect(right?.hostKeySha256).toBe(sftp.hostKeyFingerprint());
    await onlyTarget(right?.id as string);
    const delivered = await approveNewRelease();
    await runDeliveryOnce(system, { pollAcks: false });
    const [ok] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, delivered));
    expect(ok?.state).toBe('delivered');
  });

  it('a host key belongs to sftp:// targets only; another address forgets the pin', async () => {
    const folder = tempDir(path.join(os.tmpdir(), 'tunedrop-folder-'));
    const refused = await admin('/api/admin/delivery/targets', {
      method: 'POST',
      json: {
        name: 'Folder with key',
        url: `file://${folder}`,
        dpid: DPID,
        platforms: 'all',
        hostKey: sftp.hostKeyFingerprint(),
      },
    });
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.fields.hostKey).toBe(DELIVERY_MESSAGES.hostKeyOnlySftp);
    const target = await addTarget({
      name: 'Moving store',
      url: sftp.url(),
      hostKey: sftp.hostKeyFingerprint(),
      enabled: false, // no key: the store would refuse the login
    });
    const moved = await admin(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      json: { url: `sftp://${sftp.user}@localhost:${sftp.port}${sftp.root}` },
    });
    expect((await readJson(moved)).hostKeyFingerprint).toBeNull();
  });
});
