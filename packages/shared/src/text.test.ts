import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loginSchema, profileSchema } from './schemas/auth';
import { contactRequestSchema } from './schemas/site';
import { findControlCharacters, multilineText, safeText, TEXT_MESSAGES, textError } from './text';

describe('the text rule', () => {
  it.each([
    ['\u0000', TEXT_MESSAGES.controlCharacters],
    ['a\u0007b', TEXT_MESSAGES.controlCharacters],
    ['\u001b[31m', TEXT_MESSAGES.controlCharacters],
    ['\u007f', TEXT_MESSAGES.controlCharacters],
    ['\u0085', TEXT_MESSAGES.controlCharacters],
    ['a\nb', TEXT_MESSAGES.lineBreaks],
    ['a\rb', TEXT_MESSAGES.lineBreaks],
    ['a\tb', TEXT_MESSAGES.lineBreaks],
  ])('refuses %j on one line', (value, message) => {
    expect(textError(value)).toBe(message);
    expect(safeText().safeParse(value).error?.issues[0]?.message).toBe(message);
  });

  it('accepts ordinary text in any script, and line breaks and tabs where text is multi-line', () => {
    for (const value of ['Björk', 'Сергей', '坂本 龍一', 'emoji 🎵', "O'Neil & Co."]) {
      expect(safeText().safeParse(value).success).toBe(true);
    }
    expect(multilineText().safeParse('line one\r\nline two\tindented').success).toBe(true);
    expect(multilineText().safeParse('bell\u0007').success).toBe(false);
  });

  it('finds the first offending string and its path in nested input, keys included', () => {
    expect(findControlCharacters({ a: ['ok', { b: 'x\u0000' }] })).toEqual({
      path: 'a.1.b',
      message: TEXT_MESSAGES.controlCharacters,
    });
    expect(findControlCharacters({ 'k\u0000': 'v' })?.path).toBe('k\u0000');
    expect(findControlCharacters({ note: 'two\nlines' }, { isMultiline: true })).toBeNull();
    expect(findControlCharacters({ note: 'two\nlines' })?.message).toBe(TEXT_MESSAGES.lineBreaks);
    expect(findControlCharacters([1, true, null])).toBeNull();
  });

  it('is part of the form schemas both sides use', () => {
    expect(profileSchema.safeParse({ fullName: 'Jane\u0000', artistName: 'JD' }).success).toBe(false);
    expect(profileSchema.safeParse({ fullName: 'Jane', artistName: 'J\nD' }).success).toBe(false);
    expect(loginSchema.safeParse({ email: 'a@b.co\u0000', password: 'x', rememberMe: false }).success).toBe(
      false,
    );
    expect(
      contactRequestSchema.safeParse({ name: 'A\u0000', companyName: 'B', email: 'a@b.co', links: [] })
        .success,
    ).toBe(false);
  });
});

describe('every input schema uses the text rule', () => {
  it('no schema file builds an input string from a bare z.string()', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemas');
    const offenders: string[] = [];
    // Recursive: a schema split into a folder (schemas/builder/) is checked file by file.
    for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const source = fs.readFileSync(path.join(dir, name), 'utf8');
      for (const match of source.matchAll(/\bz\s*\.string\(/g)) {
        const line = source.slice(0, match.index).split('\n').length;
        offenders.push(`${name}:${line}`);
      }
    }
    // Use safeText() (one line) or multilineText() (reasons, messages) from packages/shared/src/text.ts.
    expect(offenders).toEqual([]);
  });
});
