/** The ERN reader on the official ERN 4.3 samples (vendored unchanged) and on hostile messages (record 200). */
import { describe, expect, it } from 'vitest';
import { sampleXml } from '../../test-support/catalogue-export';
import { ErnReadError, readErnMessage } from './ern-reader';
import { holderFromLine, normaliseIcpn, splitPersonName } from './source';

const NOW = new Date('2026-11-26T00:00:00Z');

describe('readErnMessage on the official samples', () => {
  it('reads the single: title, artist, ISRC, ℗ and © lines, label, genre, date from the deals, live', () => {
    const release = readErnMessage(sampleXml('audio-single.xml'), 'audio-single.xml', NOW);
    expect(release).toMatchObject({
      title: 'I Love You',
      genre: 'Classical',
      releaseDate: '2017-04-25',
      originalReleaseDate: null,
      labelName: 'Warner Classics',
      // The ICPN in the sample belongs to a RelatedRelease (IsFromAudio), not to this release.
      upc: null,
      copyrightHolder: 'Parlophone Records Limited, a Warner Music Group Company',
      copyrightYear: 2017,
      publishingHolder: 'Parlophone Records Limited, a Warner Music Group Company',
      publishingYear: 2015,
      cover: null,
      storeState: 'live',
    });
    expect(release.tracks).toEqual([
      {
        title: 'I Love You',
        isrc: 'GBAYC1700598',
        isExplicit: false,
        audio: {
          path: 'resources/190295810726_00001_LL.flac',
          hash: { algorithm: 'md5', value: 'db7dd2f3bb9b322646e3f4d7b65b47ab' },
          codec: 'FLAC',
        },
        primaryArtists: ['RIOPY'],
        featuredArtists: [],
        songwriters: [],
        producers: [],
      },
    ]);
    expect(release.notes).toContain('The front cover image names no file.');
  });

  it('reads the album: 21 recordings in ResourceGroup order, the GTIN-14 as its EAN-13, the cover file, no CLine', () => {
    const release = readErnMessage(sampleXml('audio-album.xml'), 'audio-album.xml', NOW);
    expect(release).toMatchObject({
      title: 'Yume no Hajmari',
      genre: 'J-Pop',
      releaseDate: '2004-04-01',
      labelName: 'EMI MUSIC JAPAN INC.',
      upc: '0094631432057',
      copyrightHolder: '',
      copyrightYear: null,
      publishingHolder: 'EMI Music Japan Inc.',
      publishingYear: 1994,
      cover: { path: '0094631432057.jpg' },
      storeState: 'live',
    });
    expect(release.tracks).toHaveLength(21);
    expect(release.tracks[0]).toMatchObject({
      title: 'Yume no Lullaby',
      isrc: 'JPTO09404900',
      audio: { path: '0094631432057_01_001.wav' },
      primaryArtists: ['Saeko Shu'],
    });
    expect(release.tracks[8]?.title).toBe('Natsu no Omoide (Instrumental)');
    expect(release.tracks[20]?.audio?.path).toBe('0094631432057_01_021.wav');
    expect(release.tracks.map((t) => t.isrc)).toContain('JPTO09332830');
  });

  it('reads a release without any deal, or with only ended deals, as taken down', () => {
    const single = sampleXml('audio-single.xml');
    const noDeals = single.replace(/<DealList>[\s\S]*<\/DealList>/, '');
    expect(readErnMessage(noDeals, 'x.xml', NOW).storeState).toBe('taken_down');
    const ended = single.replaceAll(
      '<StartDate>2017-04-25</StartDate>',
      '<StartDate>2017-04-25</StartDate><EndDate>2020-01-01</EndDate>',
    );
    expect(readErnMessage(ended, 'x.xml', NOW).storeState).toBe('taken_down');
  });
});

describe('hostile or broken messages', () => {
  it('refuses a DOCTYPE (entity expansion, external entities) before parsing', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><NewReleaseMessage>&lol2;</NewReleaseMessage>`;
    expect(() => readErnMessage(bomb, 'bomb.xml')).toThrow(ErnReadError);
    const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><NewReleaseMessage>&x;</NewReleaseMessage>`;
    expect(() => readErnMessage(external, 'external.xml')).toThrow(/DOCTYPE/);
  });

  it('refuses XML that is not well formed, not a NewReleaseMessage, or another ERN version', () => {
    expect(() => readErnMessage('<NewReleaseMessage><a></NewReleaseMessage>', 'a.xml')).toThrow(
      /well-formed/,
    );
    expect(() => readErnMessage('<PurgeReleaseMessage/>', 'b.xml')).toThrow(/NewReleaseMessage/);
    expect(() =>
      readErnMessage('<ern:NewReleaseMessage xmlns:ern="http://ddex.net/xml/ern/382"/>', 'c.xml'),
    ).toThrow(/ERN 4.3/);
  });
});

describe('helpers', () => {
  it('takes the holder out of a ℗/© line, keeps GTINs as 12 or 13 digits, splits names', () => {
    expect(holderFromLine('(P) 1994 EMI Music Japan Inc.', 1994)).toBe('EMI Music Japan Inc.');
    expect(holderFromLine('℗ 2020 Moonlight Records', 2020)).toBe('Moonlight Records');
    expect(holderFromLine('2015 Parlophone Records Limited', 2015)).toBe('Parlophone Records Limited');
    expect(normaliseIcpn('00094631432057')).toBe('0094631432057');
    expect(normaliseIcpn('190295810726')).toBe('190295810726');
    expect(splitPersonName('Jane Ann Writer')).toEqual({
      firstName: 'Jane',
      middleName: 'Ann',
      lastName: 'Writer',
    });
    expect(splitPersonName('RIOPY')).toEqual({ firstName: 'RIOPY', lastName: '' });
  });
});
