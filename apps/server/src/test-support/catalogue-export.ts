/**
 * Catalogue exports for the import's tests and journey (record 200), made from the official ERN 4.3
 * samples vendored in vendor/ddex/ern43/samples. The samples ship without files, so small valid WAVs and
 * a 3000x3000 JPEG are written under the names they reference. `completedSingle` is the single as a
 * distributor's export carries it in full: WAV audio with its MD5 (the sample names a FLAC whose hash
 * no generated file can match), the front cover's file, the release's own ICPN, and writer/producer credits.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeImage, makeWav } from './media';

const SAMPLES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../vendor/ddex/ern43/samples',
);

export const sampleXml = (name: 'audio-single.xml' | 'audio-album.xml') =>
  fs.readFileSync(path.join(SAMPLES, name), 'utf8');

let cover: Buffer | null = null;
export async function coverJpeg(): Promise<Buffer> {
  cover ??= await makeImage({ width: 3000, height: 3000, format: 'jpeg' });
  return cover;
}

export const tinyWav = () => makeWav({ seconds: 0.25, sampleRate: 44_100, bitDepth: 16, channels: 2 });

function write(file: string, body: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
}

/** The album sample unchanged, with a WAV per referenced track and its JPEG cover. */
export async function albumExport(dir: string, fileName = 'audio-album.xml'): Promise<void> {
  const xml = sampleXml('audio-album.xml');
  write(path.join(dir, fileName), xml);
  for (const [, uri] of xml.matchAll(/<URI>([^<]+\.wav)<\/URI>/g))
    write(path.join(dir, uri ?? ''), tinyWav());
  write(path.join(dir, '0094631432057.jpg'), await coverJpeg());
}

/** The single sample unchanged, with a generated FLAC-named file (which is not the sample's FLAC). */
export function singleExportAsShipped(dir: string, fileName = 'audio-single.xml'): void {
  write(path.join(dir, fileName), sampleXml('audio-single.xml'));
  write(
    path.join(dir, 'resources/190295810726_00001_LL.flac'),
    Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(60)]),
  );
}

export type CompletedSingleOptions = { upc?: string; isrc?: string; fileName?: string; wav?: Buffer };

/** The single as a full export (see the module comment); codes can be replaced so a shared database takes it twice. */
export async function completedSingle(
  dir: string,
  options: CompletedSingleOptions = {},
): Promise<{ xml: string }> {
  const wav = options.wav ?? tinyWav();
  const md5 = createHash('md5').update(wav).digest('hex');
  let xml = sampleXml('audio-single.xml')
    .replace(
      '<URI>resources/190295810726_00001_LL.flac</URI>',
      '<URI>resources/190295810726_00001_LL.wav</URI>',
    )
    .replace('<AudioCodecType>FLAC</AudioCodecType>', '<AudioCodecType>PCM</AudioCodecType>')
    .replace('db7dd2f3bb9b322646e3f4d7b65b47ab', md5)
    .replace(
      '<GRid>A10302B0003989564F</GRid>',
      `<GRid>A10302B0003989564F</GRid>\n            <ICPN>${options.upc ?? '190295810726'}</ICPN>`,
    )
    .replace(
      '</PartyList>',
      `   <Party>
         <PartyReference>PJaneWriter</PartyReference>
         <PartyName><FullName>Jane Writer</FullName></PartyName>
      </Party>
      <Party>
         <PartyReference>PSamProducer</PartyReference>
         <PartyName><FullName>Sam Producer</FullName></PartyName>
      </Party>
   </PartyList>`,
    )
    .replace(
      '<Role>Artist</Role>\n         </Contributor>',
      `<Role>Artist</Role>
         </Contributor>
         <Contributor>
            <ContributorPartyReference>PJaneWriter</ContributorPartyReference>
            <Role>ComposerLyricist</Role>
         </Contributor>
         <Contributor>
            <ContributorPartyReference>PSamProducer</ContributorPartyReference>
            <Role>Producer</Role>
         </Contributor>`,
    )
    .replace(
      '<ProprietaryId Namespace="PADPIDA2007050901U">XXX:123456789</ProprietaryId>\n         </ResourceId>',
      `<ProprietaryId Namespace="PADPIDA2007050901U">XXX:123456789</ProprietaryId>
         </ResourceId>
         <TechnicalDetails>
            <TechnicalResourceDetailsReference>T2</TechnicalResourceDetailsReference>
            <File><URI>resources/190295810726.jpg</URI></File>
         </TechnicalDetails>`,
    );
  if (options.isrc) xml = xml.replaceAll('GBAYC1700598', options.isrc);
  write(path.join(dir, options.fileName ?? 'audio-single.xml'), xml);
  write(path.join(dir, 'resources/190295810726_00001_LL.wav'), wav);
  write(path.join(dir, 'resources/190295810726.jpg'), await coverJpeg());
  return { xml };
}

/** A valid UPC-A with a random body (GS1 check digit), for runs that share a database. */
export function randomUpc(): string {
  const body = Array.from({ length: 11 }, () => Math.floor(Math.random() * 10)).join('');
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A valid ISRC with a random designation code. */
export const randomIsrc = () => `GBAYC17${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
