import type { CatalogueImportReport } from '@tunedrop/shared/schemas/catalogue-import';

/** The report as text: what the CLI prints and the page's download offers. */
export function formatCatalogueReport(report: CatalogueImportReport): string {
  const lines = [
    `Catalogue import ${report.id} of ${report.source} (${report.format.toUpperCase()}) for ${report.ownerEmail}${
      report.skipReview ? ', review skipped' : ''
    }${report.artistProfile ? `, artist profile ${report.artistProfile}` : ''}: ${report.importedCount} imported, ${report.refusedCount} refused${
      report.status === 'done'
        ? ''
        : ` (${report.status}, ${report.processed} of ${report.total} gone through)`
    }.`,
    ...report.problems.map((problem) => `! ${problem}`),
  ];
  for (const release of report.releases) {
    const name = `${release.title ? `"${release.title}"` : '(untitled)'}${release.upc ? ` UPC ${release.upc}` : ''} [${release.source}]`;
    if (release.outcome === 'imported') {
      lines.push(
        `IMPORTED ${name}: ${release.status}, ${release.tracks.length} track(s), release ${release.releaseId}`,
      );
    } else {
      lines.push(`REFUSED  ${name}`);
      for (const reason of release.reasons) lines.push(`  - ${reason}`);
    }
    for (const note of release.notes) lines.push(`  · ${note}`);
  }
  return lines.join('\n');
}
