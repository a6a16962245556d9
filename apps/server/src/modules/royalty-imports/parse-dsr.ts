/**
 * DDEX DSR flat files (Basic Audio Profile 1.0–1.3 in the multi-record and single-record block layouts,
 * plus the UGC profile's SU03 lines that carry their own revenue), read line by line. Record layouts are
 * chosen by the record type's four-character prefix (`SU02` for `SU02`, `SU02.02` …), following DSR.md §4–6.
 * Trailing empty cells beyond a record's definition are tolerated (the DDEX samples pad every line);
 * missing mandatory cells or extra non-empty cells refuse the line. FOOT/SRFO totals are checked.
 */

import { canonicalDecimal } from '@tunedrop/shared/money';
import { dsrMessageOfCells } from './detect';
import {
  checkCells,
  checkFooter,
  IGNORED,
  isRefusedForRange,
  LAYOUTS,
  parseBoolean,
  type Release,
  type Resource,
  readSummaryRecord,
  type Summary,
} from './dsr-records';
import { cellOf, splitCells } from './headers';
import { clip, isoDate, type ParsedLine, type ParseReport, periodOf, refuse } from './parse-common';
import type { SourceLine } from './source';

export type DsrOptions = {
  /** Called once the HEAD record is read (the import can refuse a report it already has). */
  onHead?: (report: ParseReport) => Promise<void>;
};

/** Parses a DSR file's lines; yields sales lines, fills `report`. */
export async function* parseDsr(
  lines: AsyncIterable<SourceLine>,
  report: ParseReport,
  options: DsrOptions = {},
): AsyncGenerator<ParsedLine> {
  let head: { senderName: string | null; period: string | null; numberOfFiles: number } | null = null;
  const summaries = new Map<string, Summary>();
  const duplicateSummaryIds = new Set<string>();
  let summaryRecords = 0;
  let blocks = 0;
  let currentBlock: string | null = null;
  let resources = new Map<string, Resource>();
  let releases = new Map<string, Release>();
  let headRelease: Release | null = null;
  let lastLine = 0;
  let foot: { line: number; cells: string[]; type: string } | null = null;
  let afterFoot = 0;

  const enterBlock = (blockId: string) => {
    if (blockId === currentBlock) return;
    currentBlock = blockId;
    blocks += 1;
    resources = new Map();
    releases = new Map();
    headRelease = null;
  };

  const summaryFor = (id: string | null, line: number): Summary | null => {
    if (id === null) {
      refuse(report, line, 'SummaryRecordId is missing');
      return null;
    }
    const summary = summaries.get(id);
    if (!summary) {
      refuse(report, line, `SummaryRecordId ${id} matches no summary record`);
      return null;
    }
    return summary;
  };

  const lineKey = (transactionId: string) => `${report.sender}/${report.messageId}/${transactionId}`;

  for await (const { no, text } of lines) {
    lastLine = no;
    if (foot) {
      if (text.trim() !== '') afterFoot += 1;
      continue;
    }
    if (text.trim() === '' || text.startsWith('#')) continue;
    const cells = splitCells(text);
    const type = (cells[0] ?? '').trim();
    const prefix = type.slice(0, 4);

    if (head === null) {
      if (prefix !== 'HEAD') {
        report.errors.push(`Line ${no}: a DSR file starts with a HEAD record; found "${type.slice(0, 20)}".`);
        return;
      }
      if (cells.length < 12) {
        report.errors.push(`Line ${no}: the HEAD record has ${cells.length} cells; it needs at least 12.`);
        return;
      }
      const start = cellOf(cells, 8);
      const end = cellOf(cells, 9);
      Object.assign(report, dsrMessageOfCells(cells));
      report.periodStart = start ? isoDate(start, false) : null;
      report.periodEnd = end ? isoDate(end, true) : null;
      if (!report.messageId) report.errors.push(`Line ${no}: HEAD MessageId is empty.`);
      if (!report.sender) report.errors.push(`Line ${no}: HEAD SenderPartyId is empty.`);
      if (!report.periodStart || !report.periodEnd) {
        report.errors.push(`Line ${no}: HEAD UsageStartDate/UsageEndDate are not ISO dates.`);
      }
      head = {
        senderName: cellOf(cells, 11),
        period: periodOf(start),
        numberOfFiles: Number(cellOf(cells, 7) ?? '1') || 1,
      };
      await options.onHead?.(report);
      continue;
    }

    if (prefix === 'HEAD') {
      refuse(report, no, 'a second HEAD record');
      continue;
    }
    if (IGNORED.has(prefix)) {
      if (prefix.startsWith('SY')) {
        summaryRecords += 1;
        report.errors.push(`Line ${no}: summary record type ${type} is not supported by this importer.`);
      }
      continue;
    }
    const layout = LAYOUTS[prefix];
    if (!layout) {
      refuse(report, no, `unknown record type "${type.slice(0, 20)}"`);
      continue;
    }
    const cellProblem = checkCells(cells, layout, type);
    if (cellProblem) {
      if (prefix.startsWith('SY') || prefix === 'FOOT' || prefix === 'SRFO') {
        // Money and totals come from these: a broken one is fatal, not a skipped line.
        report.errors.push(`Line ${no}: ${cellProblem}.`);
        if (prefix.startsWith('SY')) summaryRecords += 1;
      } else {
        refuse(report, no, cellProblem);
      }
      continue;
    }

    switch (prefix) {
      case 'SY01':
      case 'SY02':
      case 'SY04':
        summaryRecords += 1;
        readSummaryRecord(report, no, type, cells, head.senderName, summaries, duplicateSummaryIds);
        break;
      case 'RE01': {
        enterBlock(cellOf(cells, 1) ?? '');
        const release = { upc: cellOf(cells, 6), artist: cellOf(cells, 7), title: cellOf(cells, 9) };
        releases.set(cellOf(cells, 2) ?? '', release);
        headRelease ??= release;
        break;
      }
      case 'AS01':
      case 'AS02': {
        enterBlock(cellOf(cells, 1) ?? '');
        const isrcCell = cellOf(cells, 4);
        resources.set(cellOf(cells, 2) ?? '', {
          isrc: isrcCell ? (isrcCell.split('|')[0] ?? null) : null,
          title: cellOf(cells, 5),
          artist: cellOf(cells, 7),
        });
        break;
      }
      case 'SU01':
      case 'SU02': {
        const blockId = cellOf(cells, 1) ?? '';
        if (blockId !== currentBlock) {
          refuse(report, no, `BlockId ${blockId} has no release or resource records before its sales`);
          continue;
        }
        const summaryId = cellOf(cells, 2);
        const summary = summaryFor(summaryId, no);
        if (!summary) continue;
        const transactionId = cellOf(cells, 3);
        if (!transactionId) {
          refuse(report, no, 'SalesTransactionId is empty');
          continue;
        }
        const releaseRef = cellOf(cells, 4);
        const resourceRef = cellOf(cells, 5);
        const resource = resourceRef ? resources.get(resourceRef) : undefined;
        const release = releaseRef ? releases.get(releaseRef) : undefined;
        if (resourceRef && !resource) {
          refuse(report, no, `TransactedResource ${resourceRef} is not in block ${blockId}`);
          continue;
        }
        if (releaseRef && !release) {
          refuse(report, no, `TransactedRelease ${releaseRef} is not in block ${blockId}`);
          continue;
        }
        if (!resource && !release) {
          refuse(report, no, 'neither TransactedRelease nor TransactedResource is given');
          continue;
        }
        const bearing = parseBoolean(cellOf(cells, 6));
        let units: string | null;
        let usageType: string | null;
        if (prefix === 'SU01') {
          const usagesText = cellOf(cells, 8) ?? '';
          const returnsText = cellOf(cells, 9) ?? '0';
          const usages = /^-?\d+$/.test(usagesText) ? BigInt(usagesText) : null;
          const returns = /^-?\d+$/.test(returnsText) ? BigInt(returnsText) : null;
          if (usages === null || returns === null) {
            refuse(
              report,
              no,
              `Usages "${clip(usagesText)}" / Returns "${clip(returnsText)}" are not whole numbers`,
            );
            continue;
          }
          units = String(usages - returns);
          if (isRefusedForRange(report, no, 'Usages − Returns', units, 'quantity')) continue;
          usageType = cellOf(cells, 11);
        } else {
          const streams = cellOf(cells, 7) ?? '';
          units = canonicalDecimal(streams);
          if (units === null) {
            refuse(report, no, `NumberOfStreams "${clip(streams)}" is not a number`);
            continue;
          }
          if (isRefusedForRange(report, no, 'NumberOfStreams', units, 'quantity')) continue;
          usageType = cellOf(cells, 10);
        }
        const releaseInfo = release ?? headRelease;
        report.lineCount += 1;
        yield {
          lineNo: no,
          lineKey: lineKey(transactionId),
          saleId: transactionId,
          summaryId,
          isrc: resource?.isrc ?? null,
          upc: releaseInfo?.upc ?? null,
          title: resource?.title ?? releaseInfo?.title ?? null,
          artist: resource?.artist ?? releaseInfo?.artist ?? null,
          store: summary.store,
          country: summary.country,
          period: head.period,
          usageType: usageType ?? summary.usageType,
          units,
          amount: null,
          royaltyBearing: bearing !== false,
        };
        break;
      }
      case 'SU03': {
        const blockId = cellOf(cells, 1) ?? '';
        if (blockId !== currentBlock) {
          refuse(report, no, `BlockId ${blockId} has no resource records before its sales`);
          continue;
        }
        const transactionId = cellOf(cells, 2);
        if (!transactionId) {
          refuse(report, no, 'SalesTransactionId is empty');
          continue;
        }
        const summaryId = cellOf(cells, 3);
        const summary = summaryId ? summaries.get(summaryId) : undefined;
        if (summaryId && !summary) {
          refuse(report, no, `SummaryRecordId ${summaryId} matches no summary record`);
          continue;
        }
        const netText = cellOf(cells, 6) ?? '';
        const amount = canonicalDecimal(netText);
        if (amount === null) {
          refuse(report, no, `NetRevenue "${clip(netText)}" is not a decimal number`);
          continue;
        }
        if (isRefusedForRange(report, no, 'NetRevenue', amount, 'amount')) continue;
        const usagesText = cellOf(cells, 5) ?? '0';
        const units = canonicalDecimal(usagesText);
        if (units === null) {
          refuse(report, no, `Usages "${clip(usagesText)}" is not a number`);
          continue;
        }
        if (isRefusedForRange(report, no, 'Usages', units, 'quantity')) continue;
        const [resource] = resources.values();
        report.lineCount += 1;
        yield {
          lineNo: no,
          lineKey: lineKey(`${blockId}/${transactionId}`),
          saleId: `${blockId}/${transactionId}`,
          summaryId: null,
          isrc: resource?.isrc ?? null,
          upc: headRelease?.upc ?? null,
          title: resource?.title ?? null,
          artist: resource?.artist ?? null,
          store: summary?.store ?? head.senderName,
          country: summary?.country ?? null,
          period: periodOf(cellOf(cells, 7)) ?? head.period,
          usageType: summary?.usageType ?? null,
          units,
          amount,
          royaltyBearing: true,
        };
        break;
      }
      case 'SR01':
      case 'SR02': {
        const summaryId = cellOf(cells, 1);
        const summary = summaryFor(summaryId, no);
        if (!summary) continue;
        const transactionId = cellOf(cells, prefix === 'SR01' ? 33 : 32);
        if (!transactionId) {
          refuse(report, no, 'SalesTransactionId is empty');
          continue;
        }
        let units: string | null;
        if (prefix === 'SR01') {
          const downloads = cellOf(cells, 36) ?? '';
          const returns = cellOf(cells, 37) ?? '0';
          if (!/^-?\d+$/.test(downloads) || !/^-?\d+$/.test(returns)) {
            refuse(
              report,
              no,
              `Downloads "${clip(downloads)}" / Returns "${clip(returns)}" are not whole numbers`,
            );
            continue;
          }
          units = String(BigInt(downloads) - BigInt(returns));
          if (isRefusedForRange(report, no, 'Downloads − Returns', units, 'quantity')) continue;
        } else {
          const streams = cellOf(cells, 34) ?? '';
          units = canonicalDecimal(streams);
          if (units === null) {
            refuse(report, no, `NumberOfStreams "${clip(streams)}" is not a number`);
            continue;
          }
          if (isRefusedForRange(report, no, 'NumberOfStreams', units, 'quantity')) continue;
        }
        const isrcCell = cellOf(cells, 3);
        report.lineCount += 1;
        yield {
          lineNo: no,
          lineKey: lineKey(transactionId),
          saleId: transactionId,
          summaryId,
          isrc: isrcCell ? (isrcCell.split('|')[0] ?? null) : null,
          upc: cellOf(cells, 23),
          title: cellOf(cells, 4),
          artist: cellOf(cells, 6),
          store: summary.store,
          country: summary.country,
          period: head.period,
          usageType: summary.usageType,
          units,
          amount: null,
          royaltyBearing: parseBoolean(cellOf(cells, prefix === 'SR01' ? 34 : 33)) !== false,
        };
        break;
      }
      case 'FOOT':
      case 'SRFO':
        foot = { line: no, cells, type: prefix };
        break;
    }
  }

  if (head === null) {
    if (report.errors.length === 0)
      report.errors.push('The file is empty: a DSR file starts with a HEAD record.');
    return;
  }
  if (duplicateSummaryIds.size > 0) {
    report.warnings.push(
      `SummaryRecordId ${[...duplicateSummaryIds].join(', ')} appears on several summary records; the first one gives the store and territory.`,
    );
  }
  if (!foot) {
    report.errors.push(
      `The file ends at line ${lastLine} without a FOOT record: it is truncated or incomplete.`,
    );
    return;
  }
  if (afterFoot > 0) report.errors.push(`Line ${foot.line}: ${afterFoot} record(s) follow the FOOT record.`);
  checkFooter(report, foot, head.numberOfFiles, { lines: lastLine, summaryRecords, blocks });
}
