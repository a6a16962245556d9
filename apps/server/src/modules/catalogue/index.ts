/**
 * The catalogue core (issue 37, record 261): what a release is, below every module that makes, changes,
 * shows or delivers one. The one writer of releases, tracks and credits; the read model deliveries and the
 * DDEX export take (`releaseForDelivery`); release time and territories as columns and as a view; the
 * content checks of a WAV and a cover; how a release is named (not found, path id, cover URL) and the mails
 * about it. It imports no other module, so builder, catalogue-import, releases, release-updates, delivery,
 * ddex and admin-releases can all use it without needing each other.
 */

export { analyseWav, readAndAnalyse } from './audio-analysis';
export { availabilityColumns, availabilityView } from './availability';
export { COVER_MESSAGES, CoverError, type CoverInfo, checkCover, THUMB_SIZES } from './cover';
export { type ReleaseForDelivery, releaseForDelivery } from './release-for-delivery';
export {
  enqueueReleaseMail,
  type ReleaseMailInput,
  type ReleaseMailKind,
  releaseMail,
} from './release-mails';
export { coverUrl, releaseIdParam, releaseNotFound } from './release-refs';
export {
  type CreatedRelease,
  createRelease,
  insertTracks,
  type NewRelease,
  type NewTrack,
  replaceCredits,
  type TrackCredits,
  type TrackFile,
  uniqueViolation,
} from './release-writer';
export {
  type ByteSource,
  openFileSource,
  readWavHeader,
  WAV_MESSAGES,
  WavError,
  type WavInfo,
} from './wav';
