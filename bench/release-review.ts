/**
 * My Songs and release review at catalogue scale, and the export ZIP's throughput and memory. Starts the
 * app in-process on a real HTTP port (PGlite in memory, or PostgreSQL with DATABASE_URL), seeds rows in
 * bulk, then prints latencies (median and p95 of repeated requests) and the export's MB/s and RSS growth.
 * Prints figures; it is not a test. The machine's load average is printed too: figures taken on a busy
 * shared machine are upper bounds.
 *   node --import tsx bench/release-review.ts [releases=5000] [exportTracks=5] [exportTrackMb=40]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { releaseTitle } from './lib/release-titles';

const releaseCount = Number(process.argv[2] ?? 5000);
const exportTracks = Number(process.argv[3] ?? 5);
const exportTrackMb = Number(process.argv[4] ?? 40);

// Loaded by path so the bench project does not type-check the server's sources again.
const load = (file: string) => import(path.resolve(import.meta.dirname, '..', file));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function main() {
  const { serve } = await import('@hono/node-server');
  const { createApp } = await load('apps/server/src/app.ts');
  const { loadConfig } = await load('apps/server/src/config.ts');
  const { createLogger } = await load('apps/server/src/lib/logger.ts');
  const { startSystem } = await load('apps/server/src/server.ts');
  const { createTestUser, signInCookie } = await load('apps/server/src/test-support/fixtures.ts');
  const schema = await load('apps/server/src/db/schema.ts');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-review-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const system = await startSystem(config, createLogger('silent'), {
    runWorkers: false,
    isDatabaseInMemory: true,
  });
  const server = serve({ fetch: createApp(system).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const label = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)';

  try {
    const artist = await createTestUser(system, { email: `bench-artist-${randomUUID()}@example.com` });
    const moderator = await createTestUser(system, {
      roles: ['moderator'],
      email: `bench-mod-${randomUUID()}@example.com`,
    });
    const artistCookie = await signInCookie(system, artist.email, artist.password);
    const moderatorCookie = await signInCookie(system, moderator.email, moderator.password);
    const get = (url: string, cookie: string) =>
      fetch(`${base}${url}`, { headers: { cookie, origin: config.appUrl } });

    // ---------------------------------------------------------------- seed
    const seedStarted = performance.now();
    const statuses = ['pending', 'processing', 'approved', 'live', 'rejected', 'taken_down'];
    const year = new Date().getFullYear();
    for (let offset = 0; offset < releaseCount; offset += 500) {
      const batch = Array.from({ length: Math.min(500, releaseCount - offset) }, (_unused, index) => {
        const n = offset + index;
        return {
          id: randomUUID(),
          userId: artist.userId,
          // Two or three words from a word list, not "Release N" (bench/lib/release-titles.ts).
          title: releaseTitle(n),
          primaryArtists: ['Bench Artist'],
          primaryArtistsData: [{ name: 'Bench Artist' }],
          genre: 'Pop',
          releaseDate: `${year}-12-01`,
          copyrightHolder: 'Bench Artist',
          publishingHolder: 'Bench Artist',
          copyrightYear: year,
          publishingYear: year,
          distributionStores: ['spotify'],
          status: statuses[n % statuses.length],
          takedownRequested: n % 50 === 0 && (n % statuses.length === 2 || n % statuses.length === 3),
          createdAt: new Date(Date.UTC(2020, 0, 1) + n * 60_000),
        };
      });
      await system.db.insert(schema.releases).values(batch);
      await system.db.insert(schema.tracks).values(
        batch.map((release) => ({
          releaseId: release.id,
          position: 1,
          title: 'Track 1',
          durationMs: 180_000,
          fileKey: `${artist.userId}/${release.id}/track.wav`,
          originalFileName: 'track.wav',
          fileSizeBytes: 1000,
        })),
      );
    }
    console.info(
      `\nload average ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')} on ${os.cpus().length} CPUs`,
    );
    console.info(
      `${label}: seeded ${releaseCount} releases in ${Math.round(performance.now() - seedStarted)} ms`,
    );

    const time = async (name: string, url: string, cookie: string, runs = 20) => {
      const times: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now();
        const response = await get(url, cookie);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        times.push(performance.now() - started);
      }
      console.info(
        `  ${name.padEnd(44)} median ${percentile(times, 50).toFixed(1)} ms   p95 ${percentile(times, 95).toFixed(1)} ms`,
      );
    };

    // ---------------------------------------------------------------- My Songs
    await time('Baseline: GET /api/me (session + profile)', '/api/me', artistCookie);
    await time('My Songs first page (20)', '/api/releases?limit=20', artistCookie);
    let cursor: string | null = null;
    for (let page = 0; page < 100 && page * 20 < releaseCount - 40; page += 1) {
      const response = await get(
        `/api/releases?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        artistCookie,
      );
      cursor = ((await response.json()) as { nextCursor: string | null }).nextCursor;
      if (!cursor) break;
    }
    if (cursor)
      await time(
        'My Songs page ~100 deep (cursor)',
        `/api/releases?limit=20&cursor=${encodeURIComponent(cursor)}`,
        artistCookie,
      );

    // ---------------------------------------------------------------- review tabs
    await time('Review: pending tab page 1 (10 cards)', '/api/admin/releases?tab=pending', moderatorCookie);
    const lastPage = Math.max(1, Math.floor(releaseCount / 3 / 10));
    await time(
      `Review: pending tab page ${lastPage}`,
      `/api/admin/releases?tab=pending&page=${lastPage}`,
      moderatorCookie,
    );
    await time(
      'Review: approved tab, search "midnight"',
      '/api/admin/releases?tab=approved&q=midnight',
      moderatorCookie,
    );
    await time('Review: takedown tab', '/api/admin/releases?tab=takedown', moderatorCookie);

    // ---------------------------------------------------------------- export
    const exportId = randomUUID();
    await system.db.insert(schema.releases).values({
      id: exportId,
      userId: artist.userId,
      title: 'Export Bench',
      primaryArtists: ['Bench Artist'],
      genre: 'Pop',
      releaseDate: `${year}-12-01`,
      copyrightHolder: 'Bench Artist',
      publishingHolder: 'Bench Artist',
      copyrightYear: year,
      publishingYear: year,
      distributionStores: ['spotify', 'tidal'],
      status: 'approved',
    });
    const bytesPerTrack = exportTrackMb * 1024 * 1024;
    const body = Buffer.alloc(bytesPerTrack, 0x11);
    for (let index = 0; index < exportTracks; index += 1) {
      const key = `${artist.userId}/${exportId}/track-${index + 1}.wav`;
      await system.storage.putBuffer(key, body);
      await system.db.insert(schema.tracks).values({
        releaseId: exportId,
        position: index + 1,
        title: `Track ${index + 1}`,
        durationMs: 240_000,
        fileKey: key,
        originalFileName: `track-${index + 1}.wav`,
        fileSizeBytes: bytesPerTrack,
      });
    }
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const response = await get(`/api/admin/releases/${exportId}/export`, moderatorCookie);
    let received = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      received += chunk.value.length;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const mb = received / (1024 * 1024);
    console.info(
      `  Export ZIP ${exportTracks} × ${exportTrackMb} MB: ${mb.toFixed(0)} MB in ${seconds.toFixed(2)} s = ${(mb / seconds).toFixed(0)} MB/s; RSS +${((rssPeak - rssBefore) / 1024 / 1024).toFixed(0)} MB (server and client in one process)`,
    );
  } finally {
    server.close();
    await system.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
