import { describe, expect, it } from 'vitest';
import { fixedTitle, titleStyleChecks, titleStyleError } from './title-checks';

const codes = (title: string) => titleStyleChecks(title).map((check) => check.code);

describe('title style-guide checks', () => {
  it('finds "feat." in its usual spellings and suggests the title without it', () => {
    expect(codes('Night Drive (feat. Luna)')).toEqual(['featuring']);
    expect(codes('Night Drive ft. Luna')).toEqual(['featuring']);
    expect(codes('Night Drive [Featuring Luna]')).toEqual(['featuring']);
    expect(titleStyleChecks('Night Drive (feat. Luna)')[0]?.suggestion).toBe('Night Drive');
    expect(codes('Left Feet')).toEqual([]);
    expect(codes('Feathers')).toEqual([]);
  });

  it('finds "Official Audio" and its kin', () => {
    expect(codes('Night Drive (Official Audio)')).toEqual(['official_audio']);
    expect(codes('Night Drive - Official Music Video')).toEqual(['official_audio']);
    expect(titleStyleChecks('Night Drive (Official Audio)')[0]?.suggestion).toBe('Night Drive');
    expect(codes('Official Business')).toEqual([]);
  });

  it('finds all capitals in a title of several words, not one acronym', () => {
    expect(codes('NIGHT DRIVE')).toEqual(['all_caps']);
    expect(titleStyleChecks('NIGHT DRIVE')[0]?.suggestion).toBe('Night Drive');
    expect(codes('DNA')).toEqual([]);
    expect(codes('I AM')).toEqual([]);
    expect(codes('Night Drive')).toEqual([]);
    expect(codes('')).toEqual([]);
  });

  it('fixes every computable problem at once and gives the first reason as the field error', () => {
    expect(fixedTitle('NIGHT DRIVE (FEAT. LUNA) (OFFICIAL AUDIO)')).toBe('Night Drive');
    expect(titleStyleError('Night Drive (feat. Luna)')).toMatch(/feat\./);
    expect(titleStyleError('Night Drive')).toBeNull();
  });
});
