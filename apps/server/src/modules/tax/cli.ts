/** CLI command of tax (registered in cli-commands.ts): `tax:report --year Y --form 1099-misc|1042-s [--out DIR]`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCents } from '@tunedrop/shared';
import { TAX_REPORT_FORMS, type TaxReportForm } from '@tunedrop/shared/schemas/tax';
import { CliError, type Command } from '../../lib/cli-error';
import { buildTaxReport, recipientPdf, TaxReportMismatch, taxReportCsv } from './report';

export const taxCliCommands: Record<string, Command> = {
  'tax:report': {
    usage:
      '--year YYYY --form 1099-misc|1042-s [--out DIR]   (the year-end CSV, and with --out one recipient PDF each; refused when its totals differ from the journal)',
    options: { year: { type: 'string' }, form: { type: 'string' }, out: { type: 'string' } },
    paths: { options: ['out'] },
    async run(system, _positionals, flags) {
      const year = Number(flags.year);
      if (!Number.isInteger(year) || year < 2000 || year > 2100)
        throw new CliError('--year must be a year such as 2026', 2);
      const form = flags.form;
      if (!TAX_REPORT_FORMS.includes(form as TaxReportForm)) {
        throw new CliError(`--form must be one of ${TAX_REPORT_FORMS.join(', ')}`, 2);
      }
      let report: Awaited<ReturnType<typeof buildTaxReport>>;
      try {
        report = await buildTaxReport(system.db, system.config.appSecret, {
          year,
          form: form as TaxReportForm,
        });
      } catch (error) {
        if (error instanceof TaxReportMismatch)
          throw new CliError(`The report differs from the journal:\n${error.message}`);
        throw error;
      }
      const csv = taxReportCsv(report);
      const summary = [
        `${form} ${year}: ${report.rows.length} recipient row(s), paid ${formatCents(report.totals.grossCents)}, withheld ${formatCents(report.totals.withheldCents)}`,
        `journal: paid ${formatCents(report.journal.grossCents)} in these payouts, withheld ${formatCents(report.journal.withheldCents)} (equal)`,
      ];
      if (typeof flags.out !== 'string') return `${csv}\n${summary.join('\n')}`;
      await mkdir(flags.out, { recursive: true });
      await writeFile(join(flags.out, `${form}-${year}.csv`), csv);
      for (const [index, row] of report.rows.entries()) {
        const name = `${form}-${year}-${String(index + 1).padStart(4, '0')}-${row.userId}.pdf`;
        await writeFile(join(flags.out, name), await recipientPdf(system.db, report, row));
      }
      return [
        ...summary,
        `written to ${flags.out}: ${form}-${year}.csv and ${report.rows.length} PDF(s)`,
      ].join('\n');
    },
  },
};
