/**
 * Set-up shared by the delivery tests that drive real transports (host keys, partial packages,
 * exactly-once): a test system with staff and the DDEX settings saved, temporary folders removed at the
 * end, a target that is the only one enabled, approved releases, and what a store received.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PlatformId } from '@tunedrop/shared';
import { expect } from 'vitest';
import { deliveryTargets } from '../db/schema';
import { staff } from './admin-fixtures';
import { createTestRelease } from './fixtures';
import { createTestSystem, readJson, type TestSystem } from './harness';
import { type DeliveredPackage, readDeliveries } from './sftp';

export const STORE_DPID = 'PADPIDA2009101501Y';

export type DeliveryBed = {
  system: TestSystem;
  people: Awaited<ReturnType<typeof staff>>;
  /** A new temporary folder, removed by close(). */
  tempDir: (prefix: string) => string;
  /** Adds a target through the admin API and disables every other: approvals queue to it alone. */
  onlyTarget: (body: Record<string, unknown>) => Promise<string>;
  /** Releases created pending and approved by a moderator (so their deliveries are queued). */
  approvedReleases: (
    count: number,
    options?: { trackCount?: number; distributionStores?: PlatformId[] },
  ) => Promise<string[]>;
  close: () => Promise<void>;
};

export async function startDeliveryBed(): Promise<DeliveryBed> {
  const made: string[] = [];
  const system = await createTestSystem();
  const people = await staff(system);
  const settings = await system.request('/api/admin/settings', {
    method: 'PUT',
    cookie: people.admin.cookie,
    json: {
      isrcRegistrant: 'qz-abc',
      upcPrefix: '0614141',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  expect(settings.status).toBe(200);
  return {
    system,
    people,
    tempDir(prefix) {
      const dir = fs.mkdtempSync(prefix);
      made.push(dir);
      return dir;
    },
    async onlyTarget(body) {
      await system.db.update(deliveryTargets).set({ enabled: false });
      const response = await system.request('/api/admin/delivery/targets', {
        method: 'POST',
        cookie: people.admin.cookie,
        json: {
          name: `Store ${Date.now()}`,
          dpid: STORE_DPID,
          platforms: 'all',
          profile: 'release',
          ...body,
        },
      });
      const json = await readJson(response);
      expect(response.status, JSON.stringify(json)).toBe(201);
      return json.id as string;
    },
    async approvedReleases(count, options = {}) {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const { releaseId } = await createTestRelease(system, people.artist.userId, {
          status: 'pending',
          ...(options.trackCount ? { trackCount: options.trackCount } : {}),
          ...(options.distributionStores ? { distributionStores: options.distributionStores } : {}),
        });
        const response = await system.request(`/api/admin/releases/${releaseId}/approve`, {
          method: 'POST',
          cookie: people.moderator.cookie,
        });
        expect(response.status).toBe(200);
        ids.push(releaseId);
      }
      return ids;
    },
    async close() {
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
      await system.close();
    },
  };
}

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every package in `root` has resources, and its message carries the MD5 of each as it arrived. */
export function expectCompletePackages(root: string): DeliveredPackage[] {
  const packages = readDeliveries(root);
  for (const pkg of packages) {
    expect(pkg.resources.length).toBeGreaterThan(0);
    for (const name of pkg.resources) {
      const file = path.join(root, pkg.folder, 'resources', name);
      const sum = createHash('md5').update(fs.readFileSync(file)).digest('hex');
      expect(pkg.xml).toContain(`<HashSumValue>${sum}</HashSumValue>`);
    }
  }
  return packages;
}
