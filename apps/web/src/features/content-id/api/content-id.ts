/** Content ID requests: a release's tracks with their Content ID state, opt-in / opt-out, the channel allow-list, the admin's list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContentIdAnswers } from '@tunedrop/shared/schemas/content-id';
import { client, unwrap } from '../../../lib/api';

const releaseKey = (releaseId: string) => ['content-id', 'release', releaseId] as const;
const channelsKey = ['content-id', 'channels'] as const;

export function useReleaseContentId(releaseId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: releaseKey(releaseId),
    queryFn: () => unwrap(client['content-id'].releases[':id'].$get({ param: { id: releaseId } })),
    enabled: isEnabled,
  });
}

export function useOptTrackIn(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trackId, answers }: { trackId: string; answers: ContentIdAnswers }) =>
      unwrap(client['content-id'].tracks[':trackId'].$put({ param: { trackId }, json: answers })),
    onSuccess: (view) => queryClient.setQueryData(releaseKey(releaseId), view),
  });
}

export function useOptTrackOut(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trackId: string) =>
      unwrap(client['content-id'].tracks[':trackId'].$delete({ param: { trackId } })),
    onSuccess: (view) => queryClient.setQueryData(releaseKey(releaseId), view),
  });
}

export function useContentIdChannels(isEnabled: boolean) {
  return useQuery({
    queryKey: channelsKey,
    queryFn: () => unwrap(client['content-id'].channels.$get()),
    enabled: isEnabled,
  });
}

export function useAddContentIdChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) => unwrap(client['content-id'].channels.$post({ json: { channelId } })),
    onSuccess: (list) => queryClient.setQueryData(channelsKey, list),
  });
}

export function useRemoveContentIdChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client['content-id'].channels[':id'].$delete({ param: { id } })),
    onSuccess: (list) => queryClient.setQueryData(channelsKey, list),
  });
}

export function useAdminContentId() {
  return useQuery({
    queryKey: ['admin', 'content-id'],
    queryFn: () => unwrap(client.admin['content-id'].$get()),
  });
}
