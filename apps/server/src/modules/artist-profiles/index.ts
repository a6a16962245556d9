/** What other modules use of artist profiles (record 201): the account's profiles and the list filter. */
export {
  accountIdOf,
  findOwnArtistProfile,
  profileForNewRelease,
  resolveProfileFilter,
} from './service';
