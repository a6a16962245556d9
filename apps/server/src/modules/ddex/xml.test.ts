import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { checkWellFormed, validateErn43 } from '../../test-support/ddex';
import { buildErnMessage, type ErnRelease } from './ern';
import { manifestXml } from './package';
import { el, renderXml } from './xml';

const HOSTILE = 'Tom & "Jerry" <b>\'s</b> ]]> \u0000\u0007\u001B\uFFFE\uD800 𝄞 🎵 end';
/** What a reader gets back: every character XML 1.0 can carry, nothing else. */
const READ_BACK = 'Tom & "Jerry" <b>\'s</b> ]]>  𝄞 🎵 end';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

describe('the one XML writer', () => {
  it('escapes markup in text and attributes and drops what XML 1.0 cannot carry', () => {
    const xml = renderXml(el('Root', { Title: HOSTILE }, el('Title', HOSTILE), el('Empty'), null, false));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(checkWellFormed(xml)).toEqual({ status: 0, report: '' });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).not.toContain(']]>');
    expect(xml).toContain('Tom &amp; "Jerry" &lt;b&gt;');
    const doc = parser.parse(xml);
    expect(doc.Root.Title).toBe(READ_BACK);
    expect(doc.Root['@Title']).toBe(READ_BACK);
    expect(xml).toContain('<Empty/>');
  });

  it('writes a line break in an attribute as the space a parser would read', () => {
    const doc = parser.parse(renderXml(el('Root', { Note: 'one\ntwo\tthree' })));
    expect(doc.Root['@Note']).toBe('one two three');
  });
});

const release: ErnRelease = {
  id: '3f0c2a8e-5d7b-4c1a-9e2f-1a2b3c4d5e6f',
  title: HOSTILE,
  upc: '012345678905',
  labelName: 'Label & <Co>',
  genre: 'Pop',
  releaseDate: '2026-01-02',
  originalReleaseDate: null,
  copyrightHolder: 'C ]]> holder',
  copyrightYear: 2026,
  publishingHolder: 'P "holder"',
  publishingYear: 2026,
  distributionStores: ['spotify'],
  primaryArtists: [{ name: 'Ünïcode 🎵 & Friends' }],
  featuredArtists: [],
  cover: { fileName: 'resources/cover & art.jpg', codec: 'JPEG', md5: null, sizeBytes: 2048 },
  tracks: [
    {
      id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
      position: 1,
      title: `Track ${HOSTILE}`,
      isrc: 'USABC2400001',
      explicit: false,
      durationMs: 61_000,
      fileName: 'resources/a&b <1>.wav',
      fileSizeBytes: 4096,
      md5: 'd41d8cd98f00b204e9800998ecf8427e',
      sampleRate: 44100,
      bitDepth: 16,
      channels: 2,
      primaryArtists: [],
      featuredArtists: [{ name: 'Guest "G" <x>' }],
      songwriters: [{ firstName: 'Ann\u0001', middleName: null, lastName: "O'Neil & Sons", role: 'music' }],
      producers: [],
    },
  ],
};

describe('hostile titles through the ERN message and the manifest', () => {
  it('the ERN message keeps the title readable and validates against the ERN 4.3 schema', () => {
    const xml = buildErnMessage(
      release,
      {
        senderPartyId: 'PADPIDA2024TUNEDROP',
        senderName: 'Tunedrop',
        recipientPartyId: 'PADPIDA2024X',
        recipientName: 'X & Y',
      },
      { messageId: 'TD1', createdAt: new Date('2026-01-01T00:00:00Z') },
    );
    const { status, report } = validateErn43(xml);
    expect(report).not.toMatch(/error/i);
    expect(status).toBe(0);
    const doc = new XMLParser({ removeNSPrefix: true, parseTagValue: false }).parse(xml);
    expect(doc.NewReleaseMessage.ReleaseList.Release.DisplayTitleText).toBe(READ_BACK);
    expect(doc.NewReleaseMessage.ResourceList.SoundRecording.DisplayTitleText).toBe(`Track ${READ_BACK}`);
  });

  it('the batch manifest escapes its values with the same writer', () => {
    const xml = manifestXml({
      batchId: '20260101000000000',
      rootDirectory: 'N_20260101000000000',
      sender: 'PADPIDA2024TUNEDROP',
      recipient: 'A&B <store>\u0001\u001B',
      at: new Date('2026-01-01T00:00:00.123Z'),
      messages: [
        { messageId: 'TD1', url: `x/${HOSTILE}.xml`, upc: null, isTakedown: false, md5: 'abc' },
        { messageId: 'TD2', url: 'y/y.xml', upc: '012345678905', isTakedown: true, md5: 'def' },
      ],
    });
    expect(checkWellFormed(xml)).toEqual({ status: 0, report: '' });
    const doc = new XMLParser({ removeNSPrefix: true, parseTagValue: false }).parse(xml);
    expect(doc.ManifestMessage.MessageHeader.MessageRecipient.PartyId).toBe('A&B <store>');
    expect(doc.ManifestMessage.MessageHeader.MessageCreatedDateTime).toBe('2026-01-01T00:00:00Z');
    expect(doc.ManifestMessage.NumberOfMessages).toBe('2');
    expect(doc.ManifestMessage.MessageInBatch.map((m: { URL: string }) => m.URL)).toEqual([
      `x/${READ_BACK}.xml`,
      'y/y.xml',
    ]);
    expect(doc.ManifestMessage.MessageInBatch[1].DeliveryType).toBe('TakeDown');
    expect(doc.ManifestMessage.MessageInBatch[1].IncludedReleaseId.ICPN).toBe('012345678905');
  });
});
