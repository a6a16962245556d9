/**
 * Release titles for the list benches (issue 29): two or three words from a word list, as real catalogues
 * read, instead of "Release N" (whose shared prefix made every title match part of any search, so a
 * search's cost measured the data). None of the words is "northern", "aurora" or "sessions": the benches
 * plant "Northern Aurora Sessions" to have a search that finds the same few releases at every size.
 */
export const TITLE_WORDS = [
  'midnight',
  'golden',
  'river',
  'echo',
  'summer',
  'neon',
  'silver',
  'heart',
  'city',
  'lights',
  'ocean',
  'dream',
  'fire',
  'shadow',
  'velvet',
  'paper',
  'moon',
  'wild',
  'blue',
  'electric',
  'highway',
  'storm',
  'crystal',
  'garden',
  'broken',
  'sunrise',
  'winter',
  'rain',
  'glass',
  'thunder',
  'honey',
  'stone',
  'falling',
  'waves',
  'empire',
  'ghost',
  'cherry',
  'machine',
  'paradise',
  '静か',
  'corazón',
  'nuit',
  'forever',
  'runaway',
  'satellite',
  'horizon',
  'diamond',
  'lonely',
  'starlight',
  'memory',
  'kingdom',
  'desert',
  'mirror',
  'canyon',
  'feather',
  'harbor',
  'lullaby',
  'motion',
  'orchid',
  'pulse',
] as const;

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The title of the n-th seeded release: the same words, in the same way, as the SQL seeding of
 * bench/lists-at-scale.ts (so "midnight" is in about 3% of the titles at any size).
 */
export function releaseTitle(n: number): string {
  const count = TITLE_WORDS.length;
  const words = [
    TITLE_WORDS[(n * 7919) % count],
    TITLE_WORDS[(Math.trunc(n / 7) * 31 + n) % count],
    ...(n % 3 === 0 ? [TITLE_WORDS[(n * 131) % count]] : []),
  ];
  return words.map((word) => capitalized(word ?? '')).join(' ');
}
