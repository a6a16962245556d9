/**
 * Content ID's front door: the opt-in the builder makes inside the submission's transaction (record 192).
 * Its routes are wired by app.ts.
 */
export { optInAtSubmission, type SubmittedContentIdChoice } from './opt-in-at-submission';
