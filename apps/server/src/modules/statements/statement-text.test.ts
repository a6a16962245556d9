/**
 * Text in statement PDFs (record 149): what is stripped before layout, which embedded font draws each script,
 * right-to-left words in visual order, and the WOFF unwrapping the fonts go through.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { cleanPdfText, visualRuns, woffToSfnt } from './statement-text';

describe('cleanPdfText', () => {
  it.each([
    ['Line\u2028Break', 'Line Break'],
    ['Para\u2029graph', 'Para graph'],
    ['Tab\tand\r\nnew line', 'Tab and new line'],
    ['Next\u0085line', 'Next line'],
    ['Bell\u0007 and escape\u001b[31m', 'Bell and escape[31m'],
    ['C1\u009b control', 'C1 control'],
    ['\u202Eevil\u202C override', 'evil override'],
    ['\u2067isolate\u2069 and \u200Fmark', 'isolate and mark'],
    ['\uFEFFbyte order mark', 'byte order mark'],
    ['lone \uD800 surrogate', 'lone \uFFFD surrogate'],
    ['Cafe\u0301', 'Café'],
    ['👨‍👩‍👧 family', '👨‍👩‍👧 family'],
  ])('%j → %j', (input, expected) => {
    expect(cleanPdfText(input)).toBe(expected);
  });
});

describe('visualRuns', () => {
  const fonts = (text: string) => visualRuns(text, 'regular').map((run) => run.font.name);

  it.each([
    ['Café Déjà Vu', 'noto-sans-latin-regular'],
    ['Звезда', 'noto-sans-cyrillic-regular'],
    ['Ωμέγα', 'noto-sans-greek-regular'],
    ['नमस्ते', 'noto-sans-devanagari-regular'],
    ['سلام', 'noto-sans-arabic-arabic-regular'],
    ['שלום', 'noto-sans-hebrew-hebrew-regular'],
    ['夜の音楽', 'unifontex-latin-regular'],
    ['한국어', 'unifontex-latin-regular'],
    ['🎵', 'unifontex-latin-regular'],
  ])('draws %j with %s', (text, font) => {
    expect(fonts(text)).toEqual([font]);
  });

  it('switches font per run and keeps punctuation after CJK in the proportional face', () => {
    expect(visualRuns('夜の音楽 (Remix)', 'regular').map((run) => [run.font.name, run.text])).toEqual([
      ['unifontex-latin-regular', '夜の音楽'],
      ['noto-sans-latin-regular', ' (Remix)'],
    ]);
  });

  it('orders right-to-left words visually, each handed over in reading order', () => {
    // fontkit reverses each Arabic word's glyphs itself; the words' order is ours.
    expect(visualRuns('سلام عليكم', 'regular').map((run) => run.text)).toEqual(['عليكم', ' ', 'سلام']);
    const words = (text: string) =>
      visualRuns(text, 'regular')
        .map((run) => run.text.trim())
        .filter((word) => word !== '');
    expect(words('Mix שלום עולם here')).toEqual(['Mix', 'עולם', 'שלום', 'here']);
  });

  it('uses the bold faces where they exist', () => {
    expect(visualRuns('Bold', 'bold')[0]?.font.name).toBe('noto-sans-latin-bold');
    expect(visualRuns('夜', 'bold')[0]?.font.name).toBe('unifontex-latin-regular');
  });
});

describe('woffToSfnt', () => {
  it('unwraps a WOFF into the font it holds, glyph for glyph', () => {
    const file = createRequire(import.meta.url).resolve(
      '@fontsource/noto-sans/files/noto-sans-cyrillic-400-normal.woff',
    );
    const woff = fs.readFileSync(file);
    const sfnt = woffToSfnt(woff);
    expect(sfnt.readUInt32BE(0)).toBe(0x00010000); // TrueType outlines
    const fromWoff = fontkit.create(woff) as fontkit.Font;
    const fromSfnt = fontkit.create(sfnt) as fontkit.Font;
    expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
    expect(fromSfnt.layout('Звезда').glyphs.map((glyph) => glyph.id)).toEqual(
      fromWoff.layout('Звезда').glyphs.map((glyph) => glyph.id),
    );
    expect(fromSfnt.getGlyph(fromSfnt.glyphForCodePoint(0x0416).id).path.toSVG()).toBe(
      fromWoff.getGlyph(fromWoff.glyphForCodePoint(0x0416).id).path.toSVG(),
    );
    expect(() => woffToSfnt(sfnt)).toThrow('not a WOFF 1.0 font');
  });
});
