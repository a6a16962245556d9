/** HTTP routes of the account's artist profiles (issue 27, record 201): list, add, edit. */
import { ARTIST_PROFILE_MESSAGES, artistProfileInputSchema } from '@tunedrop/shared/schemas/artist-profiles';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { createArtistProfile, listArtistProfiles, updateArtistProfile } from './service';

export const artistProfilesRoutes = new Hono<AppEnv>()
  .get('/artist-profiles', access('user', 'read'), async (c) => {
    return c.json(await listArtistProfiles(c.var.deps.db, requireViewer(c)), 200);
  })
  .post(
    '/artist-profiles',
    access('subscriber', 'catalog'),
    validate('json', artistProfileInputSchema),
    async (c) => {
      const profile = await createArtistProfile(c.var.deps.db, requireViewer(c), c.req.valid('json'));
      return c.json({ profile }, 201);
    },
  )
  .patch(
    '/artist-profiles/:id',
    access('subscriber', 'catalog'),
    validate('json', artistProfileInputSchema),
    async (c) => {
      const id = uuidParam(c.req.param('id'), ARTIST_PROFILE_MESSAGES.notFound);
      const profile = await updateArtistProfile(c.var.deps.db, requireViewer(c), id, c.req.valid('json'));
      return c.json({ profile }, 200);
    },
  );
