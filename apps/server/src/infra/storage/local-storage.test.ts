import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage';
import { assertSafeKey } from './storage';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-storage-'));
const storage = createLocalStorage(path.join(root, 'storage'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('local storage', () => {
  it('stores, streams back and deletes an object', async () => {
    await storage.putBuffer('user-1/cover.png', Buffer.from('hello'));
    expect(await storage.exists('user-1/cover.png')).toBe(true);
    const object = await storage.get('user-1/cover.png');
    expect(object.sizeBytes).toBe(5);
    expect(await text(object.body)).toBe('hello');
    await storage.delete('user-1/cover.png');
    expect(await storage.exists('user-1/cover.png')).toBe(false);
  });

  it('copies a staged file into storage, leaving it in place, and reports the size', async () => {
    const staged = path.join(root, 'copy-source.wav');
    fs.writeFileSync(staged, 'RIFF copy');
    expect(await storage.sizeOf('user-1/release-2/copy.wav')).toBeNull();
    const stored = await storage.copyFile('user-1/release-2/copy.wav', staged);
    expect(stored.sizeBytes).toBe(9);
    expect(fs.readFileSync(staged, 'utf8')).toBe('RIFF copy');
    expect(await storage.sizeOf('user-1/release-2/copy.wav')).toBe(9);
    // Removing the staged file later leaves the stored copy whole.
    fs.rmSync(staged);
    expect(await text((await storage.get('user-1/release-2/copy.wav')).body)).toBe('RIFF copy');
  });

  it('removes temp files of interrupted writes once they are older than the cut-off, and nothing else', async () => {
    const dir = path.join(root, 'storage', 'user-1', 'release-3');
    fs.mkdirSync(dir, { recursive: true });
    const leftover = path.join(dir, 'song.wav.0b6c1f4e-2d7a-4c55-9a43-1f0e6f5d2a11.tmp');
    fs.writeFileSync(leftover, 'half');
    await storage.putBuffer('user-1/release-3/kept.tmp', Buffer.from('a real object named .tmp'));
    expect(await storage.removeStaleTemporaryFiles?.(new Date(Date.now() - 3600 * 1000))).toBe(0);
    expect(fs.existsSync(leftover)).toBe(true);
    expect(await storage.removeStaleTemporaryFiles?.(new Date(Date.now() + 1000))).toBe(1);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(await storage.exists('user-1/release-3/kept.tmp')).toBe(true);
  });

  it('moves a staged file into storage', async () => {
    const staged = path.join(root, 'staged.wav');
    fs.writeFileSync(staged, 'RIFF....');
    const stored = await storage.putFile('user-1/release-1/song.wav', staged);
    expect(stored.sizeBytes).toBe(8);
    expect(fs.existsSync(staged)).toBe(false);
  });

  it('answers not found for a missing object', async () => {
    await expect(storage.get('user-1/missing.wav')).rejects.toMatchObject({ status: 404 });
  });

  it.each(['../escape.txt', '/etc/passwd', 'a/../../b', 'a//b', '', '.hidden/x', 'a/./b', 'a\\b'])(
    'refuses the unsafe key %j',
    async (key) => {
      expect(() => assertSafeKey(key)).toThrow(/Unsafe storage key/);
      await expect(storage.putBuffer(key, Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
    },
  );
});
