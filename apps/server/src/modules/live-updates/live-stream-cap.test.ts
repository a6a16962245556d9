/**
 * Live-update connections are capped (issue 22, finding 14: one session opened 1,000): at most
 * LIVE_STREAM_LIMITS.perSession open streams per session and perInstance per server, then 429 with a
 * clear message; a closed stream frees its place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInCookie } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { createStreamSlots, LIVE_STREAM_LIMITS, LIVE_STREAM_MESSAGES } from './profile-stream';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const open = (cookie: string) => system.request('/api/events', { cookie });

describe('live-update connections per session', () => {
  it('answers 429 beyond the cap for one session, not for another session, and frees a closed place', async () => {
    const user = await system.signedInUser();
    const streams: Response[] = [];
    for (let index = 0; index < LIVE_STREAM_LIMITS.perSession; index += 1) {
      const response = await open(user.cookie);
      expect(response.status).toBe(200);
      streams.push(response);
    }
    const refused = await open(user.cookie);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await readJson(refused)).toEqual({
      error: { code: 'too_many_streams', message: LIVE_STREAM_MESSAGES.perSession },
    });

    // The same account signed in elsewhere is another session with its own places.
    const elsewhere = await open(await signInCookie(system, user.email, user.password));
    expect(elsewhere.status).toBe(200);
    await elsewhere.body?.cancel();

    // Closing a tab frees its place.
    await streams.pop()?.body?.cancel();
    const started = Date.now();
    let again = await open(user.cookie);
    while (again.status === 429 && Date.now() - started < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await open(user.cookie);
    }
    expect(again.status).toBe(200);
    streams.push(again);
    await Promise.all(streams.map((stream) => stream.body?.cancel()));
  });
});

describe('stream places', () => {
  it('caps streams per session and per instance, and counts releases once', () => {
    const slots = createStreamSlots({ perSession: 2, perInstance: 3 });
    const a1 = slots.acquire('a');
    const a2 = slots.acquire('a');
    expect(slots.acquire('a')).toEqual({ refused: 'perSession' });
    const b1 = slots.acquire('b');
    expect(slots.acquire('c')).toEqual({ refused: 'perInstance' });
    if (!('release' in a1) || !('release' in a2) || !('release' in b1)) throw new Error('refused');
    a1.release();
    a1.release();
    expect(slots.total).toBe(2);
    expect('release' in slots.acquire('c')).toBe(true);
    expect(slots.acquire('d')).toEqual({ refused: 'perInstance' });
  });
});
