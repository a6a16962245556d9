/** Display helpers of the release pages. */
export { formatDate, formatDateTime, formatDuration, personName } from '../../../lib/format';
