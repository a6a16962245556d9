/**
 * The account's artist profiles (record 201) and the one chosen in the dashboard's switcher: My Songs,
 * analytics, statements and the builder read the choice; it is kept per account in this browser.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ArtistProfile } from '@tunedrop/shared/schemas/artist-profiles';
import { useSyncExternalStore } from 'react';
import { client, unwrap } from './api';

export const artistProfilesKey = ['artist-profiles'] as const;

export const artistProfilesQuery = queryOptions({
  queryKey: artistProfilesKey,
  queryFn: () => unwrap(client['artist-profiles'].$get()),
  staleTime: 30_000,
});

export function useArtistProfiles(isEnabled = true) {
  return useQuery({ ...artistProfilesQuery, enabled: isEnabled });
}

/** 'all' or a profile id. */
export type ProfileChoice = string;
export const ALL_PROFILES: ProfileChoice = 'all';

const STORAGE_KEY = 'tunedrop.artistProfile';
const listeners = new Set<() => void>();

function read(): ProfileChoice {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? ALL_PROFILES;
  } catch {
    return ALL_PROFILES;
  }
}

export function chooseArtistProfile(choice: ProfileChoice): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, choice);
  } catch {
    // Private mode without storage: the choice lasts until the page reloads.
  }
  memory = choice;
  for (const listener of listeners) listener();
}

let memory: ProfileChoice | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) {
      memory = null;
      listener();
    }
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

const snapshot = () => memory ?? read();

/**
 * The chosen profile, checked against the account's list: a choice that is not one of its profiles (another
 * account signed in on this browser, a profile of the past) reads as "All profiles".
 */
export function useChosenArtistProfile(): {
  choice: ProfileChoice;
  profile: ArtistProfile | null;
  profiles: ArtistProfile[];
  isLoading: boolean;
} {
  const stored = useSyncExternalStore(subscribe, snapshot, () => ALL_PROFILES);
  const { data, isPending } = useArtistProfiles();
  const profiles = data?.profiles ?? [];
  const profile = profiles.find((item) => item.id === stored) ?? null;
  return { choice: profile ? profile.id : ALL_PROFILES, profile, profiles, isLoading: isPending };
}

/** `?artistProfileId=` for the chosen profile, or nothing for "All profiles". */
export function profileQuery(profile: ArtistProfile | null): { artistProfileId?: string } {
  return profile ? { artistProfileId: profile.id } : {};
}
