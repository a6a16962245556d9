/**
 * The release form's parts, below the builder and releases (issue 37, record 262): the credits editor, the
 * file box and its upload slots, the tus uploads, the release time and territories fields and rows, and the
 * Content ID eligibility questions. The builder's wizard, Edit Release and the release page's Content ID
 * opt-in compose them; this feature imports no other feature.
 */
export { discardUpload, startUpload, type UploadHandle } from './api/uploads';
export { AiDisclosureFields } from './components/ai-disclosure-fields';
export {
  type AvailabilityErrors,
  AvailabilityFields,
  AvailabilityRows,
  availabilityErrorsOf,
  draftAvailabilityView,
} from './components/availability-fields';
export { CreditsEditor } from './components/credits-editor';
export { EligibilityQuestionsDialog } from './components/eligibility-questions';
export { FileBox } from './components/file-box';
export { TitleChecks } from './components/title-checks';
export { emptyProducer, emptySongwriter, nestedErrors } from './model/credits';
export { COVER_SLOT, fileStateOf, restoreSlots, type SlotState, type Slots } from './model/slots';
