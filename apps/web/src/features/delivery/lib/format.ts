/** Display helpers of the delivery pages. */
export { platformName } from '@tunedrop/shared';
export { formatBytes, formatDateTime } from '../../../lib/format';
