/**
 * The release builder's rules (spec 02 §5, §9): every validation message, the draft the wizard
 * saves, and the submission the server re-checks. One copy for the browser and the server.
 * Split by step in `builder/` (record 169's file-size rule, issue 23); this file is their one entry.
 */
export {
  APPLE_MUSIC_URL_PREFIX,
  currentYear,
  currentYears,
  type FileRef,
  type FileState,
  fileRefSchema,
  genreSchema,
  isAppleMusicUrl,
  isSpotifyArtistUrl,
  isValidUpc,
  isValidYear,
  isWavFileName,
  normalizeIsrc,
  parseSpotifyArtistUrl,
  SPOTIFY_ARTIST_URL_PREFIX,
  sanitizeFileName,
  uploadFileNameSchema,
  type YearField,
  yearMessage,
} from './builder/fields';
export * from './builder/guidance';
export * from './builder/messages';
export * from './builder/release-details';
export * from './builder/submission';
export * from './builder/tracks';
export * from './builder/uploads';
