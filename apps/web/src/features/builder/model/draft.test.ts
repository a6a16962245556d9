import { describe, expect, it } from 'vitest';
import {
  addArtist,
  applyPlanLocks,
  emptyArtist,
  moveTrack,
  newDraft,
  releaseArtists,
  resizeTracks,
} from './draft';

const basic = { isPro: false, artistName: 'Luna' };
const pro = { isPro: true, artistName: 'Luna' };

describe('the builder draft', () => {
  it('starts with one track; basic users get their artist name as holder and primary artist', () => {
    const draft = newDraft(basic, new Date('2026-05-01T12:00:00'));
    expect(draft.tracks).toHaveLength(1);
    expect(draft.tracks[0]?.primaryArtists).toEqual([emptyArtist('Luna')]);
    expect(draft.release).toMatchObject({
      copyrightHolder: 'Luna',
      publishingHolder: 'Luna',
      copyrightYear: '2026',
      publishingYear: '2026',
    });
    expect(newDraft(pro).release.copyrightHolder).toBe('');
    expect(newDraft(pro).tracks[0]?.primaryArtists).toEqual([]);
  });

  it('grows and shrinks between 1 and 20 tracks, dropping the last ones', () => {
    const draft = newDraft(pro);
    const grown = resizeTracks(draft, 5, pro);
    expect(grown.tracks).toHaveLength(5);
    expect(grown.tracks[0]?.id).toBe(draft.tracks[0]?.id);
    const shrunk = resizeTracks({ ...grown, activeTrackId: grown.tracks[4]?.id ?? null }, 2, pro);
    expect(shrunk.tracks.map((t) => t.id)).toEqual(grown.tracks.slice(0, 2).map((t) => t.id));
    expect(shrunk.activeTrackId).toBe(grown.tracks[1]?.id);
    expect(resizeTracks(draft, 50, pro).tracks).toHaveLength(20);
    expect(resizeTracks(draft, 0, pro).tracks).toHaveLength(1);
  });

  it('moves a track and the active tab follows it', () => {
    const draft = resizeTracks(newDraft(pro), 3, pro);
    const [a, b, c] = draft.tracks.map((t) => t.id) as [string, string, string];
    const moved = moveTrack({ ...draft, activeTrackId: b }, a, c);
    expect(moved.tracks.map((t) => t.id)).toEqual([b, c, a]);
    expect(moved.activeTrackId).toBe(a);
  });

  it('ignores duplicate artists by name, caps Pro at 4 per track and basic at one per release', () => {
    let draft = newDraft(pro);
    const id = draft.tracks[0]?.id as string;
    for (const name of ['A', 'B', 'C', 'D']) {
      const result = addArtist(draft, id, 'primaryArtists', emptyArtist(name), pro);
      if (result.outcome !== 'added') throw new Error(result.outcome);
      draft = {
        ...draft,
        tracks: draft.tracks.map((track) => ({ ...track, primaryArtists: result.artists })),
      };
    }
    expect(addArtist(draft, id, 'primaryArtists', emptyArtist(' a '), pro).outcome).toBe('duplicate');
    expect(addArtist(draft, id, 'primaryArtists', emptyArtist('E'), pro).outcome).toBe('track-limit');
    expect(addArtist(draft, id, 'featuredArtists', emptyArtist('E'), pro).outcome).toBe('added');

    const basicDraft = resizeTracks(newDraft(basic), 2, basic);
    const second = basicDraft.tracks[1]?.id as string;
    const cleared = {
      ...basicDraft,
      tracks: basicDraft.tracks.map((t, i) => (i === 1 ? { ...t, primaryArtists: [] } : t)),
    };
    expect(addArtist(cleared, second, 'primaryArtists', emptyArtist('Sol'), basic).outcome).toBe(
      'release-limit',
    );
    // A blank name on basic is the user's artist name.
    const blank = addArtist(cleared, second, 'primaryArtists', emptyArtist(''), basic);
    expect(blank).toEqual({ outcome: 'added', artists: [emptyArtist('Luna')] });
  });

  it('puts the locked values back for basic users', () => {
    const draft = newDraft(pro);
    const locked = applyPlanLocks(
      { ...draft, release: { ...draft.release, copyrightHolder: 'X', copyrightYear: '1999' } },
      basic,
    );
    expect(locked.release.copyrightHolder).toBe('Luna');
    expect(locked.release.copyrightYear).toBe(String(new Date().getFullYear()));
  });

  it('lists the distinct artists of the release', () => {
    const draft = resizeTracks(newDraft(basic), 2, basic);
    expect(releaseArtists(draft).primary).toEqual([emptyArtist('Luna')]);
  });
});
