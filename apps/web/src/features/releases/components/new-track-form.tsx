/**
 * One more track on Edit Release (issue 18, record 121): title, explicit flag, a WAV through the builder's
 * upload box, songwriters and producers with the builder's credits editor, checked with the builder's own
 * per-track schema before it is sent. Its primary artists are the release's (one source of truth).
 */

import { type AiDisclosureDraft, emptyAiDisclosureDraft } from '@tunedrop/shared/schemas/ai-disclosure';
import type { PersonDraft, SongwriterDraft } from '@tunedrop/shared/schemas/builder';
import type { EditableTrack } from '@tunedrop/shared/schemas/releases';
import { addTrackSchema } from '@tunedrop/shared/schemas/releases';
import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import {
  AiDisclosureFields,
  CreditsEditor,
  discardUpload,
  emptyProducer,
  emptySongwriter,
  nestedErrors,
} from '../../release-form';
import { useAddTrack } from '../api/replace-files';
import { ReplaceFile } from './replace-file';

export function NewTrackForm({
  releaseId,
  number,
  primaryArtists,
  takenTitles,
  onAdded,
  onClose,
}: {
  releaseId: string;
  /** The new track's number (the release's track count plus one). */
  number: number;
  primaryArtists: EditableTrack['primaryArtists'];
  /** Titles of the release's tracks, lower-cased and trimmed (titles must be unique). */
  takenTitles: Set<string>;
  onAdded: (track: EditableTrack) => void;
  onClose: () => void;
}) {
  const formId = useId();
  const [title, setTitle] = useState('');
  const [explicit, setExplicit] = useState(false);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [songwriters, setSongwriters] = useState<SongwriterDraft[]>(() => [emptySongwriter()]);
  const [producers, setProducers] = useState<PersonDraft[]>(() => [emptyProducer()]);
  const [aiDisclosure, setAiDisclosure] = useState<AiDisclosureDraft>(emptyAiDisclosureDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddTrack(releaseId);

  const body = () => ({
    title,
    audioUploadId: uploadId ?? '',
    explicit,
    primaryArtists,
    featuredArtists: [],
    songwriters: songwriters.map(({ id: _id, ...writer }) => writer),
    producers: producers.map(({ id: _id, ...producer }) => producer),
    aiDisclosure: aiDisclosure.usage ? aiDisclosure : undefined,
  });

  const onSubmit = () => {
    const parsed = addTrackSchema.safeParse(body());
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
    }
    if (title.trim() && takenTitles.has(title.trim().toLowerCase())) {
      found.title = 'Track titles must be unique';
    }
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    add.mutate(parsed.data, {
      onSuccess: ({ track }) => {
        notify.success('Track added');
        onAdded(track);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        notify.error(error instanceof ApiError ? error.message : 'Failed to add track');
      },
    });
  };

  const cancel = () => {
    if (uploadId) void discardUpload(uploadId);
    onClose();
  };

  const titleId = `${formId}-title`;
  return (
    <section aria-labelledby={`${formId}-heading`}>
      <Card className="space-y-4">
        <h3 id={`${formId}-heading`} className="text-lg font-semibold text-white">
          New track {number}
        </h3>
        <Field id={titleId} label="New track title" error={errors.title}>
          <Input
            id={titleId}
            value={title}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? `${titleId}-error` : undefined}
            onChange={(event) => setTitle(event.target.value)}
          />
        </Field>
        <ReplaceFile
          label="New track audio (WAV)"
          kind="audio"
          checkedLabel="Uploaded and checked"
          error={errors.audioUploadId}
          apply={async (id) => {
            setUploadId(id);
            return {};
          }}
        />
        <label className="flex items-center gap-2 text-sm text-zinc-200">
          <input
            type="checkbox"
            className="size-4 accent-brand-500"
            checked={explicit}
            onChange={(event) => setExplicit(event.target.checked)}
          />
          Explicit content
        </label>
        <CreditsEditor
          kind="songwriter"
          trackId={`${formId}-new`}
          people={songwriters}
          error={errors.songwriters}
          fieldErrors={nestedErrors(errors, 'songwriters')}
          onAdd={() => setSongwriters((current) => [...current, emptySongwriter()])}
          onChange={(at, patch) =>
            setSongwriters((current) =>
              current.map((writer, i) => (i === at ? { ...writer, ...patch } : writer)),
            )
          }
          onRemove={(at) => setSongwriters((current) => current.filter((_, i) => i !== at))}
        />
        <CreditsEditor
          kind="producer"
          trackId={`${formId}-new`}
          people={producers}
          error={errors.producers}
          fieldErrors={nestedErrors(errors, 'producers')}
          onAdd={() => setProducers((current) => [...current, emptyProducer()])}
          onChange={(at, patch) =>
            setProducers((current) =>
              current.map((producer, i) => (i === at ? { ...producer, ...patch } : producer)),
            )
          }
          onRemove={(at) => setProducers((current) => current.filter((_, i) => i !== at))}
        />
        <AiDisclosureFields
          idPrefix={`${formId}-new`}
          value={aiDisclosure}
          error={errors.aiDisclosure}
          areasError={errors['aiDisclosure.areas']}
          onChange={setAiDisclosure}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={cancel} disabled={add.isPending}>
            <X aria-hidden className="size-4" /> Cancel
          </Button>
          <Button onClick={onSubmit} disabled={add.isPending}>
            <Plus aria-hidden className="size-4" /> {add.isPending ? 'Adding...' : 'Add this track'}
          </Button>
        </div>
      </Card>
    </section>
  );
}
