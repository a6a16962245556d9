/** Platform names for the analytics breakdown; dates and money come from lib/format. */
import { PLATFORMS } from '@tunedrop/shared';

export const platformName = (id: string) => PLATFORMS.find((platform) => platform.id === id)?.name ?? id;
