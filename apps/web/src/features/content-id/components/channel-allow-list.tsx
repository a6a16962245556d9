/** The artist's own YouTube channels, never claimed by Content ID; the channel id is checked by the shared schema. */
import { CONTENT_ID_MESSAGES, contentIdChannelSchema } from '@tunedrop/shared/schemas/content-id';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useAddContentIdChannel, useContentIdChannels, useRemoveContentIdChannel } from '../api/content-id';

export function ChannelAllowList() {
  const channels = useContentIdChannels(true);
  const add = useAddContentIdChannel();
  const remove = useRemoveContentIdChannel();
  const form = useZodForm(contentIdChannelSchema, { defaultValues: { channelId: '' } });
  const error = form.formState.errors.channelId?.message;

  const onSubmit = form.handleSubmit(({ channelId }) =>
    add.mutate(channelId, {
      onSuccess: () => {
        form.reset({ channelId: '' });
        notify.success(CONTENT_ID_MESSAGES.channelAdded);
      },
      onError: (failure) => {
        const message = errorMessage(failure, 'The channel could not be added.');
        if (failure instanceof ApiError)
          form.setError('channelId', { message: failure.fields?.channelId ?? message });
        notify.error(message);
      },
    }),
  );

  return (
    <div className="space-y-3" data-testid="content-id-channels">
      <h3 className="text-base font-semibold text-white">Your YouTube channels</h3>
      <p className="text-sm text-zinc-400">{CONTENT_ID_MESSAGES.allowListHint}</p>
      {channels.isPending ? (
        <Spinner className="text-brand-400" />
      ) : channels.isError ? (
        <p role="alert" className="text-sm text-red-400">
          Your channels could not be loaded.
        </p>
      ) : channels.data.items.length === 0 ? (
        <p className="text-sm text-zinc-400">No channels listed yet.</p>
      ) : (
        <ul
          className="divide-y divide-ink-700 rounded-lg border border-ink-700"
          aria-label="Allow-listed channels"
        >
          {channels.data.items.map((channel) => (
            <li key={channel.id} className="flex items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0 font-mono text-sm break-all text-zinc-100">{channel.channelId}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove channel ${channel.channelId}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(channel.id, {
                    onSuccess: () => notify.success(CONTENT_ID_MESSAGES.channelRemoved),
                    onError: (failure) =>
                      notify.error(errorMessage(failure, 'The channel could not be removed.')),
                  })
                }
              >
                <Trash2 aria-hidden className="size-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex-1">
          <Field id="content-id-channel" label="Channel id" error={error}>
            <Input
              id="content-id-channel"
              placeholder="UCxxxxxxxxxxxxxxxxxxxxxx"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'content-id-channel-error' : undefined}
              {...form.register('channelId')}
            />
          </Field>
        </div>
        <Button type="submit" variant="outline" className="sm:mt-6" disabled={add.isPending}>
          <Plus aria-hidden className="size-4" /> Add channel
        </Button>
      </form>
    </div>
  );
}
