/**
 * Small sales reports for the import tests that count reads (upload-reads, upload-reads-s3): a DistroKid
 * statement of `lines` sales and a DDEX DSR (Basic Audio) whose HEAD names its message, both for one ISRC.
 */
const DISTROKID_HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

/** A DistroKid statement: its header and `lines` sales of 0.<from>, 0.<from + 1>, … USD, CRLF lines. */
export function distrokidStatement(isrc: string, lines: number, from = 10): string {
  const sale = (amount: string) =>
    `2025-05-02\t2025-03\tSpotify\tReads\tSong\t${isrc}\t\t10\t100\tSong\tUS\t0\t${amount}`;
  return [DISTROKID_HEADER, ...Array.from({ length: lines }, (_, i) => sale(`0.${String(i + from)}`))].join(
    '\r\n',
  );
}

/** A DDEX DSR (Basic Audio) of 12 sales of one track, whose HEAD names `messageId`: 17 lines. */
export function basicAudioDsr(isrc: string, messageId: string): string {
  const sales = Array.from(
    { length: 12 },
    (_, i) => `SU02.02\t1\tS1\tT${i + 1}\t\tA1\ttrue\t${i + 1}\t\t\tOnDemandStream`,
  );
  const records = [
    'SY01.02\tS1\tReadsStore\t\tSubscriptionModel\tOnDemandStream\tUS\tReads Premium\t78\t\tUSD\t0.78\t\tUSD\t1',
    'RE01.02\t1\tR1\trel1\t\t\t\tReads Artist\t\tAlbum\t\tAlbum\tLabel\t\t\t',
    `AS02.03\t1\tA1\tdsp1\t${isrc}\tTrack 1\t\tReads Artist\t\tPT3M\tSoundRecording\t\t\t\t\t\t\t\t\t\t\ttrue`,
    ...sales,
  ];
  const total = records.length + 2;
  return [
    `HEAD\tdsrf/1.1/1.4.1/1.3\tBasicAudioProfile\t1.3\t${messageId}\t2026-04-10T09:00:00Z\t1\t1\t2026-01-01\t2026-03-31\tPADPIDA99999999013\tReads Stream\tReadsStream\tPADPIDA99999999021\tTunedrop\t`,
    ...records,
    `FOOT\t${total}\t${total}\t1\t1\t1`,
  ].join('\n');
}
