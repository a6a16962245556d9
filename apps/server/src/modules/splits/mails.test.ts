/** The inert quoting of a sender's text in split mails (record 147), case by case. */
import { maskEmail } from '@tunedrop/shared/schemas/splits';
import { describe, expect, it } from 'vitest';
import { quoted } from './mails';

describe('quoted', () => {
  it.each([
    ['plain name', 'Ada Lovelace', '"Ada Lovelace"'],
    ['a link with a scheme', 'go to https://evil.example/claim', '"go to https[:]//evil[.]example/claim"'],
    ['a bare domain', 'visit www.evil.example now', '"visit www[.]evil[.]example now"'],
    ['an amount keeps its dot', 'claim $5.000 today', '"claim $5.000 today"'],
    ['double quotes cannot close the quote', 'She said "hi"', `"She said 'hi'"`],
    ['line breaks and controls become one space', 'Line one\r\nSubject: x\u0007', '"Line one Subject: x"'],
    ['bidi overrides and zero-width characters go', 'abc\u202Egpj.exe\u200B', '"abcgpj[.]exe"'],
  ])('%s', (_case, input, output) => {
    expect(quoted(input)).toBe(output);
  });

  it('cuts long text at 120 characters', () => {
    expect(quoted('a'.repeat(500))).toBe(`"${'a'.repeat(120)}…"`);
  });
});

describe('maskEmail', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('x@example.com')).toBe('x•••@example.com');
  });
});
