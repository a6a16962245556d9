/**
 * DDEX: what Tunedrop says to stores, in their standard's words (records 100-105, 163). The ERN 4.3
 * NewReleaseMessage of a release, the folder and file names of an ERN package and its batch manifest
 * (ERN choreography), the parsing of store acknowledgements, and the review's ZIP export, which carries
 * the same message. Release review (`admin-releases`) and `delivery` both use it through this file; it
 * imports neither of them. Every XML document is written by `xml.ts`.
 */
export { type ParsedAck, parseAck } from './acks';
export {
  buildErnMessage,
  type ErnParties,
  type ErnPerson,
  type ErnRelease,
  type ErnTrack,
  isoDuration,
  releaseType,
} from './ern';
export {
  type ErnContentId,
  YOUTUBE_ART_TRACK_PLATFORM,
  YOUTUBE_PARTIES,
} from './ern-youtube';
export { exportErn, exportFileName, exportManifest, exportMetadata, streamExportZip } from './export-zip';
export {
  manifestXml,
  md5,
  newMessageId,
  type PackagePlan,
  packageReleaseId,
  packageXml,
  planPackage,
  STAGING_PREFIX,
  stamp,
  topFolders,
  xmlName,
} from './package';
export { ernReleaseFrom, type ReleaseData } from './release-data';
export { el, renderXml, type XmlAttrs, type XmlChild, XmlElement } from './xml';
