/** Store rows grouped by target (issue 26 finding 9, record 195). */
import type { PlatformId } from '@tunedrop/shared';
import type { ReleaseDetailStore } from '@tunedrop/shared/schemas/delivery';
import { describe, expect, it } from 'vitest';
import { GROUP_MIN_STORES, groupStores } from './release-stores';

const store = (platformId: PlatformId, target: string | null): ReleaseDetailStore => ({
  platformId,
  name: platformId,
  state: 'live',
  date: null,
  message: null,
  canRequestTakedown: true,
  target: target ? { id: target, name: `Target ${target}` } : null,
});

describe('groupStores', () => {
  it('puts a target serving enough stores in one entry at its first store, keeps the others as rows', () => {
    const stores = [
      store('spotify', 'a'),
      store('tidal', 'b'),
      store('deezer', 'a'),
      store('qobuz', null),
      store('apple_music', 'a'),
      store('joox', 'b'),
    ];
    expect(GROUP_MIN_STORES).toBe(3);
    const entries = groupStores(stores);
    expect(
      entries.map((entry) =>
        entry.kind === 'group'
          ? `group ${entry.target.name}: ${entry.stores.map((s) => s.platformId).join(',')}`
          : entry.store.platformId,
      ),
    ).toEqual(['group Target a: spotify,deezer,apple_music', 'tidal', 'qobuz', 'joox']);
  });

  it('leaves stores without a target as single rows', () => {
    const entries = groupStores([store('spotify', null), store('deezer', null), store('tidal', null)]);
    expect(entries.every((entry) => entry.kind === 'store')).toBe(true);
  });
});
