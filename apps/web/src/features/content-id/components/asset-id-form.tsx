/**
 * The admin's entry of a Content ID track's YouTube asset id (record 193), as shown in YouTube's CMS: YouTube
 * reports that name only the asset are then matched to the track. Checked by the shared schema.
 */
import { contentIdAssetSchema } from '@tunedrop/shared/schemas/content-id-claims';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSetTrackAssetId } from '../api/claims';

export function AssetIdForm({
  trackId,
  title,
  assetId,
}: {
  trackId: string;
  title: string;
  assetId: string | null;
}) {
  const save = useSetTrackAssetId();
  const form = useZodForm(contentIdAssetSchema, { defaultValues: { assetId: assetId ?? '' } });
  const id = `asset-id-${trackId}`;
  const error = form.formState.errors.assetId?.message;
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { trackId, assetId: values.assetId },
      {
        onSuccess: () => notify.success('Asset id saved'),
        onError: (failure) => {
          const message = errorMessage(failure, 'The asset id could not be saved.');
          if (failure instanceof ApiError)
            form.setError('assetId', { message: failure.fields?.assetId ?? message });
          notify.error(message);
        },
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <div className="flex-1">
        <Field id={id} label={`YouTube asset id of ${title}`} error={error}>
          <Input
            id={id}
            placeholder="A123456789012345"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            {...form.register('assetId')}
          />
        </Field>
      </div>
      <Button type="submit" variant="outline" size="sm" className="sm:mt-6" disabled={save.isPending}>
        Save asset id
      </Button>
    </form>
  );
}
