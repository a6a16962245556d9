/** Public entry of the site feature for the app's composed pages: the admin list of Contact Us requests. */
export { ContactRequestsSection } from './components/contact-requests-section';
