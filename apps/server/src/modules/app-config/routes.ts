/** GET /api/config: the public settings the web app shows (contact addresses, social links, modes). */
import { Hono } from 'hono';
import { access } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { readBrand } from '../brand';

export const appConfigRoutes = new Hono<AppEnv>().get('/', access('public'), async (c) => {
  const { config, db } = c.var.deps;
  // The operator's addresses from the brand settings (record 328), else the server's.
  const brand = await readBrand(db);
  const social = {
    instagram: config.SOCIAL_INSTAGRAM_URL ?? null,
    x: config.SOCIAL_X_URL ?? null,
    youtube: config.SOCIAL_YOUTUBE_URL ?? null,
    tiktok: config.SOCIAL_TIKTOK_URL ?? null,
  };
  return c.json(
    {
      supportEmail: brand.supportEmail || config.SUPPORT_EMAIL,
      privacyEmail: brand.privacyEmail || config.PRIVACY_EMAIL,
      social,
      payments: config.STRIPE_SECRET_KEY
        ? ('stripe' as const)
        : config.isPaymentsSandboxAllowed
          ? ('sandbox' as const)
          : ('unconfigured' as const),
      isSpotifyConfigured: Boolean(config.SPOTIFY_CLIENT_ID && config.SPOTIFY_CLIENT_SECRET),
    },
    200,
  );
});
