/** HTTP routes of the account's artist profiles (issue 27, record 201; the image, record 332). */
import { Readable } from 'node:stream';
import { ARTIST_PROFILE_MESSAGES, artistProfileInputSchema } from '@tunedrop/shared/schemas/artist-profiles';
import { Hono } from 'hono';
import { access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import {
  artistProfileImageKey,
  createArtistProfile,
  listArtistProfiles,
  removeArtistProfileImage,
  saveArtistProfileImage,
  updateArtistProfile,
} from './service';

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
  )
  // The image's bytes as the body (JPEG or PNG, at most 5 MB: lib/body-limit.ts), checked by content.
  .put('/artist-profiles/:id/image', access('subscriber', 'catalog'), async (c) => {
    const id = uuidParam(c.req.param('id'), ARTIST_PROFILE_MESSAGES.notFound);
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const profile = await saveArtistProfileImage(c.var.deps, requireViewer(c), id, bytes);
    return c.json({ profile }, 200);
  })
  .delete('/artist-profiles/:id/image', access('subscriber', 'catalog'), async (c) => {
    const id = uuidParam(c.req.param('id'), ARTIST_PROFILE_MESSAGES.notFound);
    const profile = await removeArtistProfileImage(c.var.deps, requireViewer(c), id);
    return c.json({ profile }, 200);
  })
  // Members of the account only: another account's profile answers 404.
  .get('/artist-profiles/:id/image', access('user', 'read'), async (c) => {
    const id = uuidParam(c.req.param('id'), ARTIST_PROFILE_MESSAGES.notFound);
    const key = await artistProfileImageKey(c.var.deps.db, requireViewer(c), id);
    const file = await c.var.deps.storage.get(key);
    return new Response(Readable.toWeb(file.body) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': 'image/jpeg',
        'Content-Length': String(file.sizeBytes),
        'Cache-Control': 'private, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
