/** What other features use of releases: the release time and territories fields and rows (record 199). */
export {
  AvailabilityFields,
  AvailabilityRows,
  availabilityErrorsOf,
  draftAvailabilityView,
} from './components/availability-fields';
