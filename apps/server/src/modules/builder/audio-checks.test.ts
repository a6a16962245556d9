/**
 * The audio pre-flight checks through the API (issue 41, record 298): a lossy file saved as WAV is refused
 * when its last byte arrives, with its reason; a clipped file with silence at the start passes with the
 * analysis in its details, the submitted track keeps it, and review shows it again.
 */
import { AUDIO_CHECK_TEXTS, type AudioAnalysis, audioChecks } from '@tunedrop/shared/schemas/audio-checks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracks, uploads } from '../../db/schema';
import { basicSubmission, tusUpload, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { lowPassed, padded, pcmWav, sine, whiteNoise } from '../../test-support/media';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const mono = { sampleRate: 44_100, channels: 1, bitDepth: 16 } as const;
const row = async (id: string) => (await system.db.select().from(uploads).where(eq(uploads.id, id)))[0];

describe('audio pre-flight checks', () => {
  it('refuses a lossy file saved as WAV with its reason and how to fix it', async () => {
    const { cookie } = await system.signedInUser({ plan: 'basic' });
    const noise = whiteNoise(2, 44_100, 1, 0.5);
    const full = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'master.wav',
      body: pcmWav(noise, mono),
    });
    expect(full.finished?.status).toBe(204);
    expect((await row(full.id as string))?.details).toMatchObject({ cutoffHz: 22_050, clippedRuns: 0 });

    const fake = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'from-mp3.wav',
      body: pcmWav(lowPassed(noise, 1, 44_100, 16_000), mono),
    });
    expect(fake.finished?.status).toBe(422);
    const { error } = await readJson(fake.finished as Response);
    expect(error.code).toBe('file_rejected');
    expect(error.message).toMatch(/^This WAV looks like a lossy file \(such as an MP3\) saved as WAV/);
    expect(error.message).toContain('Export the WAV again from your original project or lossless master');
    expect(await row(fake.id as string)).toMatchObject({ status: 'rejected', error: error.message });

    const info = await readJson(await system.request(`/api/builder/uploads/${fake.id}`, { cookie }));
    expect(info).toMatchObject({ status: 'rejected', error: error.message });
  });

  it('passes a clipped file with silence at the start, keeps its warnings on the track and shows them at review', async () => {
    const owner = await system.signedInUser({ plan: 'basic', artistName: 'Clip Artist' });
    const files = await uploadReleaseFiles(system, owner.cookie, 1);
    const clipped = pcmWav(padded(sine(2, 44_100, 1, 100, 2), 1, 44_100, 5), mono);
    const upload = await tusUpload(system, owner.cookie, { kind: 'audio', name: 'loud.wav', body: clipped });
    expect(upload.finished?.status).toBe(204);
    const info = await readJson(
      await system.request(`/api/builder/uploads/${upload.id}`, { cookie: owner.cookie }),
    );
    expect(info.status).toBe('checked');
    expect(info.details).toMatchObject({ clippedRuns: 400, leadingSilenceMs: 5_000, trailingSilenceMs: 0 });

    const body = basicSubmission(
      { ...files, audioIds: [upload.id as string] },
      { artistName: 'Clip Artist' },
    );
    const submitted = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: owner.cookie,
      json: body,
    });
    expect(submitted.status).toBe(201);
    const { release } = await readJson(submitted);
    const [track] = await system.db.select().from(tracks).where(eq(tracks.releaseId, release.id));
    expect(track?.audioAnalysis).toMatchObject({ clippedRuns: 400, leadingSilenceMs: 5_000 });

    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const page = await readJson(
      await system.request('/api/admin/releases?tab=pending&q=Clip', { cookie: moderator.cookie }),
    );
    const analysis = page.items[0]?.tracks[0]?.audioAnalysis as AudioAnalysis;
    expect(audioChecks(analysis).map((check) => [check.code, check.reason])).toEqual([
      ['clipping', AUDIO_CHECK_TEXTS.clipping(analysis).reason],
      ['leading_silence', 'The track starts with 5 s of silence.'],
    ]);
  });
});
