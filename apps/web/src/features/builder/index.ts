/**
 * Public entry of the builder feature (the release wizard and its uploads): the pieces the releases
 * feature reuses to edit a submitted release. Other features import the builder only from here.
 */
export { discardUpload, startUpload, type UploadHandle } from './api/uploads';
export { CreditsEditor } from './components/credits-editor';
export { FileBox } from './components/file-box';
export { emptyProducer, emptySongwriter } from './model/draft';
export type { SlotState } from './model/slots';
