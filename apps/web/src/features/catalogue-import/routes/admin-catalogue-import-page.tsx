/**
 * /admin/catalogue-import (issue 26 finding 10, record 200): an admin imports a label's existing
 * releases from a folder the server lists (ERN 4.3 messages with their files, or a catalogue CSV), for
 * one artist account, optionally skipping review and choosing the artist profile; the import runs as a job
 * whose progress and per-release report are shown as they grow, kept and downloadable (record 232).
 */
import {
  CATALOGUE_CSV_COLUMNS,
  CATALOGUE_IMPORT_MESSAGES,
  type CatalogueImportReport,
  catalogueImportRequestSchema,
} from '@tunedrop/shared/schemas/catalogue-import';
import { Download, FolderInput } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { Field, Input, Select } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  reportDownloadUrl,
  useCatalogueImportReport,
  useCatalogueImports,
  useRunCatalogueImport,
} from '../api/catalogue-import';

const FORMAT_NAMES = { ern: 'ERN messages', csv: 'CSV', none: 'nothing to import' } as const;
const STATUS_NAMES = {
  queued: 'waiting to start',
  running: 'importing',
  done: 'done',
  failed: 'failed',
} as const;

export default function AdminCatalogueImportPage() {
  usePageTitle('Catalogue import');
  const overview = useCatalogueImports();
  const [shownId, setShownId] = useState<string | null>(null);
  const shown = useCatalogueImportReport(shownId);
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold text-white">Catalogue import</h1>
        <p className="mt-1 text-zinc-400">
          Bring a label’s existing releases in with their codes, dates and store state: an ERN 4.3 message per
          release with its files, or a catalogue CSV with its files.
        </p>
      </header>
      {overview.isPending ? (
        <PageLoader />
      ) : overview.isError ? (
        <p role="alert" className="text-zinc-300">
          {errorMessage(overview.error, 'Failed to load the catalogue imports.')}
        </p>
      ) : (
        <>
          <ImportForm folders={overview.data.folders} onDone={setShownId} />
          {shownId && shown.data ? <ReportView report={shown.data} /> : null}
          <Card className="space-y-3">
            <h2 className="text-lg font-semibold text-white">Earlier imports</h2>
            {overview.data.imports.length === 0 ? (
              <p className="text-sm text-zinc-400">No catalogue has been imported yet.</p>
            ) : (
              <ul className="divide-y divide-ink-800" aria-label="Earlier imports">
                {overview.data.imports.map((item) => (
                  <li
                    key={item.id}
                    className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm"
                  >
                    <span className="text-zinc-200">
                      {new Date(item.createdAt).toLocaleString()} · {item.source} · {item.ownerEmail} ·{' '}
                      {item.importedCount} imported, {item.refusedCount} refused
                      {item.status === 'done' ? '' : ` · ${STATUS_NAMES[item.status]}`}
                    </span>
                    <span className="flex gap-2">
                      <Button size="sm" variant="outline" onClick={() => setShownId(item.id)}>
                        View report of {item.source}
                      </Button>
                      <a className={buttonClass('ghost', 'sm')} href={reportDownloadUrl(item.id)} download>
                        <Download aria-hidden className="size-4" /> Download
                      </a>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <CsvColumns />
        </>
      )}
    </div>
  );
}

function ImportForm({
  folders,
  onDone,
}: {
  folders: { name: string; format: 'ern' | 'csv' | 'none'; files: number }[];
  onDone: (id: string) => void;
}) {
  const run = useRunCatalogueImport();
  const [folder, setFolder] = useState('');
  const [ownerEmail, setOwnerEmail] = useState('');
  const [skipReview, setSkipReview] = useState(false);
  const [artistProfile, setArtistProfile] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = catalogueImportRequestSchema.safeParse({ folder, ownerEmail, skipReview, artistProfile });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    run.mutate(parsed.data, {
      onSuccess: (report) => {
        notify.success(CATALOGUE_IMPORT_MESSAGES.started, `Importing ${report.source}`);
        onDone(report.id);
      },
      onError: (failure) => {
        if (failure instanceof ApiError && failure.fields) setErrors(failure.fields);
        notify.error(errorMessage(failure, 'The import failed.'));
      },
    });
  };

  return (
    <Card className="space-y-4">
      <div>
        <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
          <FolderInput aria-hidden className="size-5" /> Import a folder
        </h2>
        <p className="text-sm text-zinc-400">
          Copy each export into its own folder under <code className="text-zinc-200">catalogue-import</code>{' '}
          in the server’s data folder (by SFTP or rsync); it is listed here. The import runs in the
          background: its report fills in below as each release is checked. Every release is checked with the
          release builder’s rules and refused whole or imported whole; codes already in use are refused.
        </p>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
        <Field id="catalogue-folder" label="Folder" error={errors.folder}>
          <Select
            id="catalogue-folder"
            value={folder}
            aria-invalid={errors.folder ? true : undefined}
            aria-describedby={errors.folder ? 'catalogue-folder-error' : undefined}
            onChange={(event) => setFolder(event.target.value)}
          >
            <option value="">Choose a folder</option>
            {folders.map((item) => (
              <option key={item.name} value={item.name}>
                {item.name} ({FORMAT_NAMES[item.format]}
                {item.format === 'ern' ? `, ${item.files}` : ''})
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="catalogue-owner"
          label="Artist account (email)"
          error={errors.ownerEmail}
          hint="The releases belong to this account."
        >
          <Input
            id="catalogue-owner"
            type="email"
            autoComplete="off"
            value={ownerEmail}
            aria-invalid={errors.ownerEmail ? true : undefined}
            aria-describedby={errors.ownerEmail ? 'catalogue-owner-error' : 'catalogue-owner-hint'}
            onChange={(event) => setOwnerEmail(event.target.value)}
          />
        </Field>
        <Field
          id="catalogue-artist-profile"
          label="Artist profile (optional)"
          error={errors.artistProfile}
          hint="Leave empty to put each release under the account’s profile named like its artist (or the account’s only profile). Enter a profile’s name to put every release of the folder under it."
        >
          <Input
            id="catalogue-artist-profile"
            autoComplete="off"
            value={artistProfile}
            aria-invalid={errors.artistProfile ? true : undefined}
            aria-describedby={
              errors.artistProfile ? 'catalogue-artist-profile-error' : 'catalogue-artist-profile-hint'
            }
            onChange={(event) => setArtistProfile(event.target.value)}
          />
        </Field>
        <label className="flex items-start gap-2 text-sm text-zinc-200 sm:col-span-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={skipReview}
            onChange={(event) => setSkipReview(event.target.checked)}
          />
          <span>
            Skip review: approve the releases with their own codes and queue them for delivery (a release
            without a UPC or ISRC still goes to Pending; no new codes are made without review)
          </span>
        </label>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={run.isPending}>
            {run.isPending ? 'Starting…' : 'Import catalogue'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ReportView({ report }: { report: CatalogueImportReport }) {
  return (
    <Card className="space-y-3" aria-labelledby="catalogue-report-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="catalogue-report-title" className="text-lg font-semibold text-white">
          Report: {report.source}
        </h2>
        <a className={buttonClass('outline', 'sm')} href={reportDownloadUrl(report.id)} download>
          <Download aria-hidden className="size-4" /> Download report
        </a>
      </div>
      <p className="text-sm text-zinc-300" data-testid="catalogue-report-summary">
        {report.importedCount} imported, {report.refusedCount} refused · {report.ownerEmail}
        {report.skipReview ? ' · review skipped' : ''}
        {report.artistProfile ? ` · artist profile ${report.artistProfile}` : ''}
      </p>
      <ImportProgress report={report} />
      {report.problems.map((problem) => (
        <p key={problem} role="alert" className="text-sm text-red-300">
          {problem}
        </p>
      ))}
      <ul className="space-y-3" aria-label="Releases in this import">
        {report.releases.map((release) => (
          <li
            key={`${release.source}-${release.releaseId ?? ''}`}
            aria-label={release.title ?? release.source}
            className="rounded-lg border border-ink-800 p-3 text-sm"
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-white">{release.title ?? '(untitled)'}</span>
              {release.upc ? <span className="text-zinc-400">UPC {release.upc}</span> : null}
              <Badge tone={release.outcome === 'imported' ? 'green' : 'red'}>
                {release.outcome === 'imported' ? `Imported · ${release.status}` : 'Refused'}
              </Badge>
              <span className="text-xs text-zinc-400">{release.source}</span>
            </div>
            {release.reasons.length > 0 ? (
              <ul className="mt-2 list-disc space-y-1 pl-5 text-red-300">
                {release.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            ) : null}
            {release.notes.length > 0 ? (
              <ul className="mt-2 space-y-1 text-zinc-400">
                {release.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ImportProgress({ report }: { report: CatalogueImportReport }) {
  const underway = report.status === 'queued' || report.status === 'running';
  return (
    <div role="status" className="space-y-1 text-sm text-zinc-300" data-testid="catalogue-import-status">
      {report.status === 'queued' ? <p>Waiting to start…</p> : null}
      {report.status === 'running' ? (
        <p>
          Importing: {report.processed} of {report.total || '…'} gone through
        </p>
      ) : null}
      {report.status === 'done' ? <p>Done: {report.processed} gone through.</p> : null}
      {report.status === 'failed' ? <p className="text-red-300">The import failed.</p> : null}
      {underway && report.total > 0 ? (
        <progress
          className="h-2 w-full"
          max={report.total}
          value={report.processed}
          aria-label={`Import progress: ${report.processed} of ${report.total}`}
        />
      ) : null}
    </div>
  );
}

function CsvColumns() {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold text-white">Catalogue CSV columns</h2>
      <p className="text-sm text-zinc-400">
        One row per track; the rows of one release share <code>release_key</code>. Lists inside a cell are
        separated by <code>;</code>. File paths are relative to the CSV’s folder.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-zinc-400">
            <tr>
              <th className="py-1 pr-4 font-medium">Column</th>
              <th className="py-1 pr-4 font-medium">Required</th>
              <th className="py-1 font-medium">Meaning</th>
            </tr>
          </thead>
          <tbody className="text-zinc-200">
            {CATALOGUE_CSV_COLUMNS.map((column) => (
              <tr key={column.name} className="border-t border-ink-800">
                <td className="py-1 pr-4 font-mono text-xs">{column.name}</td>
                <td className="py-1 pr-4">{column.isRequired ? 'Yes' : 'No'}</td>
                <td className="py-1">{column.meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
