/**
 * The README's example, type-checked with the package (`npm run typecheck`), so it stays true to the
 * document. Run against a server: `TUNEDROP_SERVER=… TUNEDROP_KEY=td_live_… COVER_UPLOAD=… AUDIO_UPLOAD=…
 * npx tsx packages/api-client/example.ts`.
 */
import { createTunedropClient } from './src/index';

const api = createTunedropClient({
  server: process.env.TUNEDROP_SERVER ?? 'http://localhost:3000',
  apiKey: process.env.TUNEDROP_KEY ?? '',
});

// List releases (catalogue:read).
const { data, error } = await api.GET('/releases', { params: { query: { limit: 20 } } });
if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
for (const release of data.items) process.stdout.write(`${release.title}: ${release.status}\n`);

// Create a release (releases:submit) from files uploaded with tus. The Idempotency-Key makes a retry safe:
// the same key gets the first answer back and creates nothing more.
const created = await api.POST('/builder/releases', {
  headers: { 'Idempotency-Key': 'tide-tables-2026-06-01' },
  body: {
    idempotencyKey: 'tide-tables-2026-06-01',
    platforms: ['spotify', 'apple_music'],
    release: {
      title: 'Tide Tables',
      genre: 'Electronic',
      releaseDate: '2026-06-01',
      coverUploadId: process.env.COVER_UPLOAD ?? '',
      copyrightHolder: 'Harbour Records',
      publishingHolder: 'Harbour Records',
      copyrightYear: 2026,
      publishingYear: 2026,
    },
    tracks: [
      {
        title: 'Low Water',
        audioUploadId: process.env.AUDIO_UPLOAD ?? '',
        primaryArtists: [{ name: 'Harbour Strings' }],
        songwriters: [{ firstName: 'Ada', lastName: 'Quay' }],
        producers: [{ firstName: 'Ada', lastName: 'Quay' }],
        aiDisclosure: { usage: 'none' },
      },
    ],
  },
});
if (created.error) {
  // A code of the closed set; `validation_error` names the fields.
  const { code, message, fields } = created.error.error;
  process.stderr.write(`${code}: ${message} ${JSON.stringify(fields ?? {})}\n`);
} else process.stdout.write(`created: ${JSON.stringify(created.data)}\n`);
