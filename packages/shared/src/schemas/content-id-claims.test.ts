import { describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES, youtubeAssetIdSchema } from './content-id-claims';

describe('youtubeAssetIdSchema', () => {
  it.each([
    ['A123456789012345', true],
    [' A900000000000001 ', true],
    ['A1b2C3d', true],
    ['A12345', false],
    ['a123456789012345', false],
    ['B123456789012345', false],
    ['A1234567890-12345', false],
    ['A12345678901234\n5', false],
    ['', false],
  ])('%j → %s', (value, isValid) => {
    const result = youtubeAssetIdSchema.safeParse(value);
    expect(result.success).toBe(isValid);
    if (!result.success) expect(result.error.issues[0]?.message).toBe(CLAIM_MESSAGES.assetInvalid);
  });

  it('keeps the asset id trimmed', () => {
    expect(youtubeAssetIdSchema.parse(' A123456789012345 ')).toBe('A123456789012345');
  });
});
