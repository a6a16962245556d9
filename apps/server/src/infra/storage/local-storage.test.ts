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
