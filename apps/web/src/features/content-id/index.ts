/** Public entry of the content-id feature: what other features and the router may use. */
export { ReleaseContentIdSection } from './components/content-id-section';
export { EligibilityQuestionsDialog } from './components/eligibility-dialog';
