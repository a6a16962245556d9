/**
 * Issue 22, finding 1: a server started with default settings (no APP_SECRET) never signs with the
 * public development secret of earlier versions, so nothing computed with that secret is accepted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_SECRET } from './config';
import { AppSecretMismatchError, checkAppSecret } from './db/app-secret-check';
import { tracks } from './db/schema';
import { signFileUrl } from './modules/admin-releases';
import { createTestRelease, createTestUser } from './test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from './test-support/harness';

let system: TestSystem;
let trackKey: string;

beforeAll(async () => {
  // Default settings: the harness sets no APP_SECRET.
  system = await createTestSystem();
  const artist = await createTestUser(system);
  const { trackIds } = await createTestRelease(system, artist.userId);
  const [track] = await system.db
    .select({ fileKey: tracks.fileKey })
    .from(tracks)
    .where(eq(tracks.id, trackIds[0] ?? ''));
  trackKey = track?.fileKey ?? '';
});
afterAll(async () => {
  await system.close();
});

const relative = (url: string) => url.replace(system.config.appUrl, '');

describe('a server with no APP_SECRET', () => {
  it('signs with the secret generated in its DATA_DIR, not with the public one', () => {
    expect(system.config.appSecretSource).toBe('DATA_DIR');
    expect(system.config.appSecret).not.toBe(DEVELOPMENT_SECRET);
    const file = path.join(system.dataDir, 'app-secret');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(system.config.appSecret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a download link computed with the public development secret', async () => {
    const forged = signFileUrl(
      { appUrl: system.config.appUrl, appSecret: DEVELOPMENT_SECRET },
      'audio-files',
      trackKey,
    );
    const response = await system.request(relative(forged.signedUrl));
    expect(response.status).toBe(403);
    expect((await readJson(response)).error).toMatchObject({
      code: 'invalid_signature',
      message: 'This download link is not valid.',
    });
    // The same link signed by the server itself works: the file is there and the refusal is the signature's.
    const genuine = signFileUrl(system.config, 'audio-files', trackKey);
    expect((await system.request(relative(genuine.signedUrl))).status).toBe(200);
  });
});

describe('one secret per database', () => {
  it('refuses a process whose secret is not the one the database was set up with', async () => {
    // Started once already (createTestSystem recorded this secret's check value); the same secret passes.
    await expect(checkAppSecret(system.db, system.config)).resolves.toBeUndefined();
    const otherInstance = { ...system.config, appSecret: 'another-instance-own-secret-0123456789' };
    const refusal = checkAppSecret(system.db, otherInstance);
    await expect(refusal).rejects.toBeInstanceOf(AppSecretMismatchError);
    await expect(refusal).rejects.toThrow(
      `APP_SECRET: this database was set up with another secret than the secret generated in ${path.join(system.dataDir, 'app-secret')}`,
    );
    await expect(
      checkAppSecret(system.db, { ...otherInstance, appSecretSource: 'APP_SECRET' }),
    ).rejects.toThrow(
      /another secret than the APP_SECRET variable\. Every server and CLI on one database must use the same one/,
    );
  });
});
