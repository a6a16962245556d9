/**
 * The target lifecycle from the CLI (issue 26, record 177): add tests the connection and refuses an
 * unreachable target unless --disabled; list, disable, enable, remove with the same holding rule as the
 * admin page. Against a real OpenSSH SFTP store.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DELIVERY_MESSAGES,
  targetHoldsMessage,
  targetTakingDownMessage,
} from '@tunedrop/shared/schemas/delivery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { deliveryTargets } from '../../db/schema';
import type { Command } from '../../lib/cli-error';
import { type DeliveryBed, STORE_DPID, startDeliveryBed } from '../../test-support/delivery-fixtures';
import type { TestSystem } from '../../test-support/harness';
import { freePort, type SftpServer, startSftpServer, storeAcknowledgeAll } from '../../test-support/sftp';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
let system: TestSystem;
let sftp: SftpServer;

beforeAll(async () => {
  sftp = await startSftpServer();
  bed = await startDeliveryBed();
  ({ system } = bed);
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await sftp?.stop();
});

function command(name: string): Command {
  const found = cliCommands[name];
  if (!found) throw new Error(`${name} is not registered`);
  return found;
}
const cli = (name: string, positionals: string[], flags: Record<string, string | boolean> = {}) =>
  command(name).run(system, positionals, flags);

describe('delivery:target:* commands', () => {
  it('add refuses an unreachable target unless --disabled, and keeps nothing it refused', async () => {
    const closed = `sftp://store@127.0.0.1:${await freePort()}/in`;
    const base = { url: closed, dpid: STORE_DPID, platforms: 'all' };
    await expect(cli('delivery:target:add', [], { ...base, name: 'Nowhere' })).rejects.toThrow(
      new RegExp(
        `^${DELIVERY_MESSAGES.targetUnreachable}: Connection refused.*\\nAdd it with --disabled`,
        's',
      ),
    );
    expect(await cli('delivery:target:list', [])).not.toContain('Nowhere');

    const added = await cli('delivery:target:add', [], { ...base, name: 'Nowhere', disabled: true });
    expect(added).toMatch(
      /^Added delivery target Nowhere .*\nDisabled \(connection test: Connection refused/s,
    );
    expect(await cli('delivery:target:list', [])).toMatch(
      /Nowhere {2}disabled {2}sftp:\/\/store@127\.0\.0\.1/,
    );
    // A wrong check character is refused before anything is added.
    await expect(
      cli('delivery:target:add', [], { ...base, name: 'Typo', dpid: 'PADPIDA2009101501Z', disabled: true }),
    ).rejects.toThrow(`--dpid: ${DELIVERY_MESSAGES.dpidCheckInvalid}`);
  }, 60_000);

  it('list, disable, enable and remove a key-only target that holds a release', async () => {
    fs.mkdirSync(path.join(sftp.root, 'cli'), { recursive: true });
    await system.db.update(deliveryTargets).set({ enabled: false });
    const added = await cli('delivery:target:add', [], {
      name: 'CLI store',
      url: sftp.url('cli'),
      key: sftp.privateKeyFile,
      dpid: STORE_DPID,
      platforms: 'spotify',
    });
    // The connection test met the server: its host key is pinned at once.
    expect(added).toBe(
      `Added delivery target CLI store (${added.split('(')[1]?.split(')')[0]}): ${sftp.url('cli')}, spotify, release profile, host key ${sftp.hostKeyFingerprint()}`,
    );
    await bed.approvedReleases(1, { distributionStores: ['spotify'] });
    await runDeliveryOnce(system, { pollAcks: false });
    storeAcknowledgeAll(path.join(sftp.root, 'cli'));
    await runDeliveryOnce(system, { pollAcks: true });
    expect(await cli('delivery:target:list', [])).toMatch(
      /CLI store {2}enabled {2}.* {2}holds 1 release\(s\)/,
    );

    await expect(cli('delivery:target:remove', ['cli store'])).rejects.toThrow(
      targetHoldsMessage('CLI store', 1),
    );
    expect(await cli('delivery:target:disable', ['CLI store'])).toBe(
      'Disabled CLI store: no new releases go there; updates and takedowns of what it holds still do.',
    );
    expect(await cli('delivery:target:list', [])).toMatch(/CLI store {2}disabled /);
    expect(await cli('delivery:target:enable', ['CLI store'])).toBe('Enabled CLI store.');

    expect(await cli('delivery:target:remove', ['CLI store'], { 'take-down-all': true })).toBe(
      targetTakingDownMessage('CLI store', 1),
    );
    expect(await cli('delivery:target:list', [])).toMatch(/CLI store {2}disabled /);
    await runDeliveryOnce(system, { pollAcks: false });
    storeAcknowledgeAll(path.join(sftp.root, 'cli'));
    await runDeliveryOnce(system, { pollAcks: true });
    expect(await cli('delivery:target:remove', ['CLI store'])).toBe('Removed CLI store.');
    expect(await cli('delivery:target:list', [])).not.toContain('CLI store');
    await expect(cli('delivery:target:enable', ['CLI store'])).rejects.toThrow(
      `${DELIVERY_MESSAGES.targetNotFound} (CLI store)`,
    );
    await expect(cli('delivery:target:disable', [])).rejects.toThrow(/name the target/);
  }, 60_000);
});
