/**
 * Delivery throughput (issue 15). It is not a test.
 *   node --import tsx bench/delivery.ts [--tracks 20] [--track-mib 50] [--rounds 2] [--releases 500] [--workers 2]
 * 1. A 20-track album (20 × 50 MiB WAV) delivered by the delivery worker (ssh2-sftp-client, pipelined
 *    writes, MD5 on the way, the ERN XML last) to a local OpenSSH sftp server started for the run, beside
 *    the OpenSSH `sftp` command-line client putting the same 20 files to the same server, interleaved,
 *    best of `rounds`. Target: worker ≥ 80% of the sftp client's throughput.
 * 2. `releases` single-track releases queued at once and delivered by `workers` worker loops (each its own
 *    claim/lease, as separate instances would) to the same server: releases per minute and the RSS growth
 *    of the process running them (the server's workers run in the server process). Target: flat, < 150 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq, inArray, sql } from 'drizzle-orm';
import { deliveries, releases, tracks } from '../apps/server/src/db/schema';
import { queueNewDeliveries } from '../apps/server/src/modules/delivery/planning';
import { createTarget } from '../apps/server/src/modules/delivery/targets';
import { runDeliveryOnce } from '../apps/server/src/modules/delivery/worker';
import { createTestRelease, createTestUser } from '../apps/server/src/test-support/fixtures';
import { createTestSystem } from '../apps/server/src/test-support/harness';
import { startSftpServer } from '../apps/server/src/test-support/sftp';

const { values } = parseArgs({
  options: {
    tracks: { type: 'string', default: '20' },
    'track-mib': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    releases: { type: 'string', default: '500' },
    workers: { type: 'string', default: '2' },
  },
});
const MiB = 1024 * 1024;
const TRACKS = Number(values.tracks);
const TRACK_BYTES = Number(values['track-mib']) * MiB;
const ROUNDS = Number(values.rounds);
const RELEASES = Number(values.releases);
const WORKERS = Number(values.workers);

async function writeWav(file: string, size: number, seed: number) {
  const dataSize = size - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataSize, 40);
  const block = Buffer.alloc(4 * MiB);
  for (let i = 0; i < block.length; i += 2) block.writeInt16LE((((i + seed) * 37) % 20_000) - 10_000, i);
  const handle = await fsp.open(file, 'w');
  await handle.write(header);
  for (let written = 0; written < dataSize; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, dataSize - written));
  }
  await handle.close();
}

const rss = () => process.memoryUsage().rss;
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

async function main() {
  const sftp = await startSftpServer();
  const system = await createTestSystem({ LOG_LEVEL: 'silent' });
  try {
    const artist = await createTestUser(system, { email: `bench-${Date.now()}@example.com` });
    const storageRoot = path.join(system.dataDir, 'storage');

    // ---------------------------------------------------------------- 1. album throughput
    const { releaseId, trackIds } = await createTestRelease(system, artist.userId, {
      status: 'approved',
      trackCount: TRACKS,
      distributionStores: ['spotify'],
      upc: '614141000012',
    });
    const rows = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    for (const [index, row] of rows.entries()) {
      await writeWav(path.join(storageRoot, row.fileKey), TRACK_BYTES, index);
      await system.db.update(tracks).set({ fileSizeBytes: TRACK_BYTES }).where(eq(tracks.id, row.id));
    }
    const files = rows.map((row) => path.join(storageRoot, row.fileKey));
    const totalBytes = TRACK_BYTES * trackIds.length;
    const target = await createTarget(system.db, system.config, {
      name: 'Bench SFTP',
      url: sftp.url('worker'),
      privateKey: sftp.privateKey,
      dpid: 'PADPIDA2009101501Y',
      platforms: 'all',
      profile: 'release',
    });
    fs.mkdirSync(path.join(sftp.root, 'worker'));

    const workerTimes: number[] = [];
    const cliTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // the worker
      await system.db.delete(deliveries).where(eq(deliveries.releaseId, releaseId));
      await queueNewDeliveries(system.db, releaseId);
      let started = performance.now();
      await runDeliveryOnce(system, { pollAcks: false });
      workerTimes.push(performance.now() - started);
      const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
      if (row?.state !== 'delivered')
        throw new Error(`worker delivery ended ${row?.state}: ${row?.lastError}`);

      // the sftp command-line client, the same files
      const dir = `cli-${round}`;
      const batch = path.join(os.tmpdir(), `tunedrop-bench-sftp-${process.pid}.txt`);
      fs.writeFileSync(
        batch,
        [
          `mkdir ${path.join(sftp.root, dir)}`,
          ...files.map((f) => `put ${f} ${path.join(sftp.root, dir)}/`),
        ].join('\n'),
      );
      started = performance.now();
      const result = spawnSync(
        'sftp',
        [
          '-q',
          '-b',
          batch,
          '-P',
          String(sftp.port),
          '-i',
          sftp.privateKeyFile,
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          'UserKnownHostsFile=/dev/null',
          `${sftp.user}@127.0.0.1`,
        ],
        { encoding: 'utf8' },
      );
      cliTimes.push(performance.now() - started);
      if (result.status !== 0) throw new Error(`sftp failed: ${result.stderr}`);
      fs.rmSync(path.join(sftp.root, dir), { recursive: true, force: true });
      for (const entry of fs.readdirSync(path.join(sftp.root, 'worker'))) {
        fs.rmSync(path.join(sftp.root, 'worker', entry), { recursive: true, force: true });
      }
    }
    const worker = mbps(totalBytes, Math.min(...workerTimes));
    const cli = mbps(totalBytes, Math.min(...cliTimes));
    console.info(`album: ${TRACKS} × ${TRACK_BYTES / MiB} MiB over SFTP, best of ${ROUNDS}`);
    console.info(
      `  delivery worker (MD5 + ERN XML included): ${worker.toFixed(1)} MiB/s  (rounds ms: ${workerTimes.map(Math.round).join(', ')})`,
    );
    console.info(
      `  OpenSSH sftp client put:                 ${cli.toFixed(1)} MiB/s  (rounds ms: ${cliTimes.map(Math.round).join(', ')})`,
    );
    console.info(`  worker / sftp client: ${((worker / cli) * 100).toFixed(0)}%  (target ≥ 80%)`);

    // ---------------------------------------------------------------- 2. many releases, several workers
    await system.db.delete(deliveries);
    await system.db.update(releases).set({ status: 'pending' }).where(eq(releases.id, releaseId));
    const ids: string[] = [];
    for (let i = 0; i < RELEASES; i++) {
      const created = await createTestRelease(system, artist.userId, {
        status: 'approved',
        trackCount: 1,
        distributionStores: ['spotify'],
        releaseDate: '2099-01-01',
      });
      ids.push(created.releaseId);
    }
    for (const id of ids) await queueNewDeliveries(system.db, id);
    global.gc?.();
    const rssBefore = rss();
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 50);
    const started = performance.now();
    const loops = Array.from({ length: WORKERS }, async (_, w) => {
      for (;;) {
        const pass = await runDeliveryOnce(system, {
          pollAcks: false,
          maxJobs: 25,
          workerId: `bench-${w}`,
          retryBaseMs: 1000,
        });
        if (pass.jobs === 0) return;
      }
    });
    await Promise.all(loops);
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    const rssAfter = rss();
    const [counts] = await system.db
      .select({
        delivered: sql<number>`count(*) filter (where state = 'delivered')::int`,
        total: sql<number>`count(*)::int`,
      })
      .from(deliveries)
      .where(inArray(deliveries.releaseId, ids));
    const folders = fs.readdirSync(path.join(sftp.root, 'worker')).length;
    console.info(`\n${RELEASES} single-track releases, ${WORKERS} workers, SFTP:`);
    console.info(
      `  delivered ${counts?.delivered}/${counts?.total} (folders on the server: ${folders}; a duplicate would show as more)`,
    );
    console.info(
      `  ${(RELEASES / (elapsed / 60_000)).toFixed(0)} releases/min  (${(elapsed / 1000).toFixed(1)} s)`,
    );
    console.info(
      `  RSS before ${(rssBefore / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB, after ${(rssAfter / MiB).toFixed(0)} MiB: growth ${((peak - rssBefore) / MiB).toFixed(0)} MiB (target < 150 MB)`,
    );
    void target;
  } finally {
    await system.close();
    await sftp.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
