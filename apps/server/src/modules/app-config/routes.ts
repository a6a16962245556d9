/** GET /api/config: the public settings the web app shows (contact addresses, social links, modes). */
import { Hono } from 'hono';
import { access } from '../../lib/access';
import type { AppEnv } from '../../lib/context';

export const appConfigRoutes = new Hono<AppEnv>().get('/', access('public'), (c) => {
  const { config } = c.var.deps;
  const social = {
    instagram: config.SOCIAL_INSTAGRAM_URL ?? null,
    x: config.SOCIAL_X_URL ?? null,
    youtube: config.SOCIAL_YOUTUBE_URL ?? null,
    tiktok: config.SOCIAL_TIKTOK_URL ?? null,
  };
  return c.json(
    {
      supportEmail: config.SUPPORT_EMAIL,
      privacyEmail: config.PRIVACY_EMAIL,
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
