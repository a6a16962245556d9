/**
 * The artist's releases' front door: deleting a release's rows and stored files (admin review), and the
 * edit rules and file claims a post-release update reuses (record 197). Its routes are wired by app.ts.
 */
export { editedReleaseColumns, syncTrackArtists } from './edit';
export { consumeUpload, copyNewAudio, type FileDeps } from './files';
export { deleteReleaseRows, removeStoredFiles } from './service';
