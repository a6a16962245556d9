/**
 * Edit Release (spec 02 §2, §8): the owner edits a pending or processing release, or deletes it; a
 * rejected one too, then resubmits it from its page (issue 18). The cover art and each track's WAV can be
 * replaced through the builder's uploads and checks (record 121).
 */
import {
  publishingHolderWarning,
  RIGHTS_HELP,
  releaseDateLeadWarning,
} from '@tunedrop/shared/schemas/builder';
import {
  type AvailabilityDraft,
  availabilityDraftToInput,
  releaseAvailabilitySchema,
} from '@tunedrop/shared/schemas/release-availability';
import { RELEASE_MESSAGES, type ReleaseForEdit } from '@tunedrop/shared/schemas/releases';
import { ArrowLeft, Save, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { CoverThumb } from '../../../components/ui/cover-thumb';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, FieldWarning, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { usePlanLock } from '../../../lib/plan-lock';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import { type AvailabilityErrors, AvailabilityFields, availabilityErrorsOf } from '../../release-form';
import { useDeleteRelease } from '../api/delete-release';
import { useReleaseForEdit } from '../api/get-release';
import { useReplaceCover } from '../api/replace-files';
import { useUpdateRelease } from '../api/update-release';
import {
  GenreField,
  releaseFieldProps,
  setReleaseFieldErrors,
  useReleaseDetailsForm,
} from '../components/release-details-form';
import { ReplaceFile } from '../components/replace-file';
import { TracksEditor } from '../components/tracks-editor';

const isNotEditableError = (error: unknown) =>
  error instanceof ApiError && error.code === 'release_not_editable';

export default function EditReleasePage() {
  usePageTitle('Edit Release');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const release = useReleaseForEdit(id);

  useEffect(() => {
    if (release.isError) {
      notify.error(RELEASE_MESSAGES.loadFailed);
      navigate(paths.songs, { replace: true });
    } else if (release.data && !release.data.isEditable) {
      notify.error(RELEASE_MESSAGES.cannotEdit, RELEASE_MESSAGES.cannotEditTitle);
      navigate(paths.songs, { replace: true });
    }
  }, [release.isError, release.data, navigate]);

  if (release.isPending || release.isError || !release.data.isEditable) return <PageLoader />;
  return <EditReleaseForm release={release.data} />;
}

function EditReleaseForm({ release }: { release: ReleaseForEdit }) {
  const navigate = useNavigate();
  const { data: viewer } = useViewer();
  const isPro = viewer ? viewerFacts(viewer).isPro : false;
  const lockText = usePlanLock().featureText;
  const update = useUpdateRelease(release.id);
  const remove = useDeleteRelease(release.id);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);

  // Basic releases carry the artist name as both holders (spec 02 §1); the server enforces the same.
  const lockedHolder = isPro ? null : (viewer?.profile.artistName ?? null);
  const form = useReleaseDetailsForm(release, lockedHolder);
  const { errors } = form.formState;
  // Release time and territories (record 199): kept beside the form, checked by the shared schema.
  const [availability, setAvailability] = useState<AvailabilityDraft>(() => ({
    releaseTimeMode: release.availability.releaseTimeMode,
    releaseTime: release.availability.releaseTime ?? '',
    releaseTimeZone: release.availability.releaseTimeZone ?? '',
    territoryMode: release.availability.territoryMode,
    territories: release.availability.territories,
  }));
  const [availabilityErrors, setAvailabilityErrors] = useState<AvailabilityErrors>({});

  const onCannotEdit = () => {
    notify.error(RELEASE_MESSAGES.cannotEdit, RELEASE_MESSAGES.cannotEditTitle);
    navigate(paths.songs, { replace: true });
  };

  const checkAvailability = () => {
    const checked = releaseAvailabilitySchema.safeParse(availabilityDraftToInput(availability));
    const found: Record<string, string> = {};
    if (!checked.success) {
      for (const issue of checked.error.issues)
        found[`availability.${issue.path.join('.')}`] ??= issue.message;
    }
    setAvailabilityErrors(availabilityErrorsOf(found));
    return checked.success;
  };

  const onSubmit = form.handleSubmit((values) => {
    if (!checkAvailability()) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    update.mutate(
      {
        ...values,
        labelName: values.labelName || null,
        availability: availabilityDraftToInput(availability),
      },
      {
        onSuccess: () => {
          notify.success(RELEASE_MESSAGES.updated);
          // A rejected release is fixed to be resubmitted: back to its page, where Resubmit is.
          navigate(release.status === 'rejected' ? paths.releaseDetail(release.id) : paths.songs);
        },
        onError: (error) => {
          if (isNotEditableError(error)) return onCannotEdit();
          // A team member whose role does not allow edits (record 325): the server says which role.
          if (error instanceof ApiError && error.code === 'account_role')
            return notify.error(error.message, 'Not allowed');
          if (error instanceof ApiError && error.fields) {
            setReleaseFieldErrors(form, error.fields);
            setAvailabilityErrors(availabilityErrorsOf(error.fields));
          }
          notify.error(RELEASE_MESSAGES.updateFailed);
        },
      },
    );
  });

  const onDelete = () => {
    remove.mutate(undefined, {
      onSuccess: () => {
        notify.success(RELEASE_MESSAGES.deleted);
        navigate(paths.songs, { replace: true });
      },
      onError: (error) => {
        setIsDeleteOpen(false);
        if (isNotEditableError(error)) return onCannotEdit();
        notify.error(RELEASE_MESSAGES.deleteFailed);
      },
    });
  };

  const lockedHint = isPro ? undefined : 'Locked on the Basic plan: your artist name and the submitted year.';
  const fieldProps = releaseFieldProps('edit', errors);
  // What each rights field means (record 181), then the Basic plan's lock when there is one.
  const rightsHint = (field: 'copyrightHolder' | 'copyrightYear' | 'publishingHolder') =>
    lockedHint ? `${RIGHTS_HELP[field]} ${lockedHint}` : RIGHTS_HELP[field];
  const holderWarning = isPro ? publishingHolderWarning(form.watch('publishingHolder') ?? '') : null;
  // Not a refusal: the date is not edited here, but the artist learns the stores may list it late.
  const dateWarning = releaseDateLeadWarning(release.releaseDate);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to={paths.songs} className={buttonClass('ghost', 'sm')}>
          <ArrowLeft aria-hidden className="size-4" /> Back
        </Link>
      </div>
      <div>
        <h1 className="text-3xl font-bold text-white">Edit Release</h1>
        <p className="mt-1 text-sm text-zinc-400">
          {release.status === 'rejected'
            ? 'Fix what the moderator asked for, save, then resubmit the release from its page.'
            : 'You can change a release while it is pending or processing.'}
        </p>
        <FieldWarning id="edit-releaseDate-warning">{dateWarning}</FieldWarning>
      </div>
      <Card>
        <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Field id="edit-title" label="Release Title" error={errors.title?.message}>
              <Input {...fieldProps('title')} {...form.register('title')} />
            </Field>
          </div>
          <Field
            id="edit-primaryArtists"
            label="Primary Artists"
            error={errors.primaryArtists?.message}
            hint={isPro ? 'Separate several artists with commas.' : 'One primary artist on the Basic plan.'}
          >
            <Input {...fieldProps('primaryArtists')} {...form.register('primaryArtists')} />
          </Field>
          <Field
            id="edit-featuredArtists"
            label="Featured Artists (optional)"
            error={errors.featuredArtists?.message}
            hint="Separate several artists with commas."
          >
            <Input {...fieldProps('featuredArtists')} {...form.register('featuredArtists')} />
          </Field>
          <GenreField {...fieldProps('genre')} {...form.register('genre')} error={errors.genre?.message} />
          <Field
            id="edit-labelName"
            label="Label Name"
            error={errors.labelName?.message}
            hint={isPro ? 'Optional.' : lockText}
          >
            <Input
              {...fieldProps('labelName')}
              {...form.register('labelName')}
              disabled={!isPro}
              placeholder={isPro ? 'Independent' : lockText}
            />
          </Field>
          <Field
            id="edit-copyrightHolder"
            label="Copyright Holder"
            error={errors.copyrightHolder?.message}
            hint={rightsHint('copyrightHolder')}
          >
            <Input
              {...fieldProps('copyrightHolder', 'edit-copyrightHolder-hint')}
              {...form.register('copyrightHolder')}
              readOnly={!isPro}
            />
          </Field>
          <Field
            id="edit-copyrightYear"
            label="Copyright Year"
            error={errors.copyrightYear?.message}
            hint={rightsHint('copyrightYear')}
          >
            <Input
              {...fieldProps('copyrightYear', 'edit-copyrightYear-hint')}
              {...form.register('copyrightYear')}
              inputMode="numeric"
              readOnly={!isPro}
            />
          </Field>
          <div>
            <Field
              id="edit-publishingHolder"
              label="Publishing Holder"
              error={errors.publishingHolder?.message}
              hint={rightsHint('publishingHolder')}
            >
              <Input
                {...fieldProps(
                  'publishingHolder',
                  'edit-publishingHolder-hint',
                  holderWarning && 'edit-publishingHolder-warning',
                )}
                {...form.register('publishingHolder')}
                readOnly={!isPro}
              />
            </Field>
            <FieldWarning id="edit-publishingHolder-warning">{holderWarning}</FieldWarning>
          </div>
          <div className="sm:col-span-2">
            <AvailabilityFields
              idPrefix="edit-availability"
              value={availability}
              releaseDate={release.releaseDate}
              errors={availabilityErrors}
              onChange={(next) => {
                setAvailability(next);
                setAvailabilityErrors({});
              }}
            />
          </div>
          <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-between">
            <Button
              variant="danger"
              onClick={() => setIsDeleteOpen(true)}
              disabled={update.isPending || remove.isPending}
            >
              <Trash2 aria-hidden className="size-4" /> Delete Release
            </Button>
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              <Link to={paths.songs} className={buttonClass('outline')}>
                Cancel
              </Link>
              <Button type="submit" disabled={update.isPending || remove.isPending}>
                <Save aria-hidden className="size-4" /> {update.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
            </div>
          </div>
        </form>
      </Card>
      <CoverEditor release={release} />
      {release.tracks.length > 0 ? <TracksEditor releaseId={release.id} initial={release.tracks} /> : null}
      <ConfirmDialog
        open={isDeleteOpen}
        onOpenChange={(open) => {
          if (!remove.isPending) setIsDeleteOpen(open);
        }}
        title="Delete Release"
        description={RELEASE_MESSAGES.deleteConfirm}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        isDestructive
        isPending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}

/** The current cover and "Replace cover art": a checked upload becomes the release's cover at once. */
function CoverEditor({ release }: { release: ReleaseForEdit }) {
  const replace = useReplaceCover(release.id);
  return (
    <section aria-labelledby="cover-edit-title">
      <Card className="space-y-4">
        <h2 id="cover-edit-title" className="text-xl font-semibold text-white">
          Cover Art
        </h2>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <CoverThumb
            src={release.coverUrl}
            alt={`Current cover of ${release.title}`}
            size={120}
            className="rounded-xl"
          />
          <div className="min-w-0 flex-1">
            <ReplaceFile
              label="Replace cover art"
              kind="cover"
              successMessage="Cover art replaced"
              apply={async (uploadId) => {
                const { cover } = await replace.mutateAsync(uploadId);
                return { previewUrl: cover.coverUrl };
              }}
            />
          </div>
        </div>
      </Card>
    </section>
  );
}
