import { describe, expect, it } from 'vitest';
import { waitText } from './splits';

describe('waitText', () => {
  it.each([
    [1, '1 second'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [3540, '59 minutes'],
    // A limit hit a few seconds after the first invitation of the hour: not "60 minutes".
    [3541, '1 hour'],
    [3599, '1 hour'],
    [3600, '1 hour'],
    [3601, '2 hours'],
    [75_590, '21 hours'],
  ])('%i s reads "%s"', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });
});
