/** Display helpers of the delivery pages. */
import { PLATFORMS } from '@tunedrop/shared';

export { formatDateTime } from '../../../lib/format';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

const platformNames = new Map<string, string>(PLATFORMS.map((platform) => [platform.id, platform.name]));
export const platformName = (id: string) => platformNames.get(id) ?? id;
