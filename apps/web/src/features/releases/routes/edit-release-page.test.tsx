/**
 * Edit Release as its owner meets it, against mocked API answers (issue 37, release form): the release's
 * details filled in, the Basic plan's locked fields, a save that sends the edited details with the release
 * time and territories and returns to My Songs, a refusal the server explains shown under its field with the
 * page kept, and a release that can no longer be edited left for My Songs.
 */

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MeResponse } from '@tunedrop/shared';
import type { ReleaseForEdit } from '@tunedrop/shared/schemas/releases';
import { HttpResponse, http } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { getJson, server } from '../../../test-support/api-mock';
import { viewerOf } from '../../../test-support/viewer';
import EditReleasePage from './edit-release-page';

const viewer = (plan: 'basic' | 'pro') => viewerOf({ plan });

const release: ReleaseForEdit = {
  id: 'r1',
  title: 'Night Drive',
  primaryArtists: ['Ada'],
  featuredArtists: [],
  genre: 'Pop',
  labelName: null,
  copyrightHolder: 'Ada',
  copyrightYear: 2026,
  publishingHolder: 'Ada',
  releaseDate: '2099-01-15',
  availability: {
    releaseTimeMode: 'local_midnight',
    releaseTime: null,
    releaseTimeZone: null,
    territoryMode: 'worldwide',
    territories: [],
    releaseAt: null,
  },
  status: 'pending',
  isEditable: true,
  coverUrl: null,
  tracks: [],
};

/** The page at /dashboard/releases/r1/edit, and a page for wherever it navigates to. */
function renderEditPage(me: MeResponse, answer: ReleaseForEdit = release) {
  server.use(getJson('/me', me), getJson(`/releases/${answer.id}`, { release: answer }));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: paths.editRelease(':id'), element: <EditReleasePage /> },
      { path: '*', element: <p>Navigated away</p> },
    ],
    { initialEntries: [paths.editRelease(answer.id)] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The form once the viewer is read: a Pro owner's rights holders are editable. */
async function proFormOpen() {
  const title = await screen.findByLabelText('Release Title');
  await waitFor(() =>
    expect((screen.getByLabelText('Copyright Holder') as HTMLInputElement).readOnly).toBe(false),
  );
  // happy-dom shows no option selected in a select react-hook-form filled as it mounted (a browser shows
  // the release's genre, as the journeys check): choose it as the artist would see it.
  await userEvent.setup().selectOptions(screen.getByLabelText('Genre'), 'Pop');
  return title;
}

describe('Edit Release', () => {
  it("fills in the release's details, and a save sends the edits with the release time and territories", async () => {
    const router = renderEditPage(viewer('pro'));
    const title = await proFormOpen();
    expect((title as HTMLInputElement).value).toBe('Night Drive');

    const sent: unknown[] = [];
    server.use(
      http.patch('*/api/releases/r1', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ release: { ...release, title: 'Night Drive (Remastered)' } });
      }),
    );
    const user = userEvent.setup();
    await user.clear(title);
    await user.type(title, 'Night Drive (Remastered)');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(paths.songs));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      title: 'Night Drive (Remastered)',
      genre: 'Pop',
      labelName: null,
      availability: { releaseTimeMode: 'local_midnight', territoryMode: 'worldwide' },
    });
  });

  it('locks the label and the rights holders on the Basic plan', async () => {
    renderEditPage(viewer('basic'));
    await screen.findByLabelText('Release Title');
    expect((screen.getByLabelText('Label Name') as HTMLInputElement).disabled).toBe(true);
    for (const label of ['Copyright Holder', 'Copyright Year', 'Publishing Holder'])
      expect((screen.getByLabelText(label) as HTMLInputElement).readOnly).toBe(true);
  });

  it("shows the server's refusal under its field and keeps the page and what was typed", async () => {
    const router = renderEditPage(viewer('pro'));
    const title = await proFormOpen();
    server.use(
      http.patch('*/api/releases/r1', () =>
        HttpResponse.json(
          {
            error: {
              code: 'validation',
              message: 'Check the highlighted fields.',
              fields: { title: 'The title is already used by another of your releases.' },
            },
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    await user.clear(title);
    await user.type(title, 'Taken Title');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('The title is already used by another of your releases.')).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect((title as HTMLInputElement).value).toBe('Taken Title');
    expect(router.state.location.pathname).toBe(paths.editRelease('r1'));
  });

  it('leaves for My Songs when the release can no longer be edited', async () => {
    const router = renderEditPage(viewer('pro'), { ...release, status: 'approved', isEditable: false });
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.songs));
    expect(screen.queryByLabelText('Release Title')).toBeNull();
  });
});
