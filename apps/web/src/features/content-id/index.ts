/** Public entry of the content-id feature: what app/ (the release page it composes) may use. */
export { ReleaseContentIdSection } from './components/content-id-section';
