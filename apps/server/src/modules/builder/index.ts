/**
 * The release builder's front door: what other modules use of it, the uploads a release may take and the
 * crash-safe copy of checked WAVs into storage (releases and release-updates replace and add files through
 * these, so a file passes exactly the checks a submitted one does). Its routes and jobs are wired by the
 * composition roots (app.ts, job-registry.ts).
 */
export {
  copyAudioIntoStorage,
  FileClaimedElsewhere,
  removeStagedAudio,
  trackFileFields,
  type UploadRow,
  usableUpload,
} from './files';
export { closeUploads } from './uploads';
