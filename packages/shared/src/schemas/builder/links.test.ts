/**
 * Artist links and upload names (issue 43 finding 12): Spotify and Apple Music links are checked by host
 * and form, in drafts too (a draft never keeps text that would render as a link), and file names with
 * invisible direction or formatting characters are refused with their own message.
 */
import { describe, expect, it } from 'vitest';
import { isAppleMusicUrl, isSpotifyArtistUrl, uploadFileNameSchema } from './fields';
import { BUILDER_MESSAGES } from './messages';
import { artistDraftSchema, withoutInvalidDraftLinks } from './tracks';

describe('artist links', () => {
  it.each([
    ['https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF', true],
    ['https://open.spotify.com/artist/4q3ewBCX7sLwd24euuV69X?si=abc', true],
    ['https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF/../../track/1', false],
    ['https://open.spotify.com:8443/artist/0OdUWJ0sBjDrqHygGUXeCF', false],
    ['https://open.spotify.com.evil.example/artist/0OdUWJ0sBjDrqHygGUXeCF', false],
    ['javascript:alert(1)//https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF', false],
    ['http://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF', false],
  ])('Spotify %s → %s', (url, isValid) => {
    expect(isSpotifyArtistUrl(url)).toBe(isValid);
  });

  it.each([
    ['https://music.apple.com/us/artist/luna/1234567890', true],
    ['https://music.apple.com/artist/1234567890', true],
    ['https://music.apple.com/gb/artist/luna/id42?l=en', true],
    ['https://music.apple.com/us/album/moonrise/987', false],
    ['https://music.apple.com/anything at all', false],
    ['https://music.apple.com@evil.example/us/artist/luna/1', false],
    ['https://music.apple.com.evil.example/us/artist/luna/1', false],
  ])('Apple Music %s → %s', (url, isValid) => {
    expect(isAppleMusicUrl(url)).toBe(isValid);
  });

  it('a draft refuses a link that is not one, and keeps an empty or valid one', () => {
    const bad = artistDraftSchema.safeParse({
      name: 'Luna',
      spotifyLink: 'javascript:alert(1)',
      appleMusicLink: '',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(BUILDER_MESSAGES.spotifyLinkInvalid);
    const apple = artistDraftSchema.safeParse({
      name: 'Luna',
      spotifyLink: '',
      appleMusicLink: 'https://evil.example',
    });
    expect(apple.error?.issues[0]?.message).toBe(BUILDER_MESSAGES.appleMusicLinkInvalid);
    expect(
      artistDraftSchema.parse({
        name: 'Luna',
        spotifyLink: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF',
        appleMusicLink: '',
      }).spotifyLink,
    ).toBe('https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF');
  });

  it('a stored draft with an old invalid link loads with that link blanked', () => {
    const stored = {
      title: 'x',
      tracks: [
        {
          primaryArtists: [
            {
              name: 'Luna',
              spotifyLink: 'javascript:alert(1)',
              appleMusicLink: 'https://music.apple.com/artist/1',
            },
          ],
          featuredArtists: [],
        },
      ],
    };
    expect(withoutInvalidDraftLinks(stored).tracks[0]?.primaryArtists[0]).toEqual({
      name: 'Luna',
      spotifyLink: '',
      appleMusicLink: 'https://music.apple.com/artist/1',
    });
  });
});

describe('upload file names', () => {
  it.each(['song\u202Evaw.exe', 'a\u2066b.wav', 'a\u200Fb.wav', 'a\uFEFFb.wav', 'a\u2028b.wav'])(
    'refuses %j with the formatting message',
    (name) => {
      expect(uploadFileNameSchema.safeParse(name).error?.issues[0]?.message).toBe(
        BUILDER_MESSAGES.fileNameFormatting,
      );
    },
  );

  it('keeps names in any script', () => {
    expect(uploadFileNameSchema.parse('أغنية 01.wav')).toBe('أغنية 01.wav');
    expect(uploadFileNameSchema.parse('Café – démo.wav')).toBe('Café – démo.wav');
  });
});
