/**
 * The dashboard's artist profile switcher (record 201): a native select, so it is keyboard and screen
 * reader friendly and fits 390 px; My Songs, analytics, statements and the builder follow the choice.
 */
import { ARTIST_PROFILE_MESSAGES } from '@tunedrop/shared/schemas/artist-profile-rules';
import { Link } from 'react-router';
import { Select } from '../../components/ui/input';
import { paths } from '../../config/paths';
import { ALL_PROFILES, chooseArtistProfile, useChosenArtistProfile } from '../../lib/artist-profiles';

export function ArtistProfileSwitcher({ idSuffix }: { idSuffix: string }) {
  const { choice, profiles, isLoading } = useChosenArtistProfile();
  const id = `artist-profile-switcher-${idSuffix}`;
  if (isLoading || profiles.length === 0) return null;
  // The chosen profile's image beside the select (none for "All profiles").
  const chosenImage = profiles.find((profile) => profile.id === choice)?.imageUrl ?? null;
  return (
    <div className="space-y-1 px-2">
      <label htmlFor={id} className="block text-xs font-medium uppercase tracking-wide text-zinc-400">
        Artist profile
      </label>
      <div className="flex items-center gap-2">
        {chosenImage ? (
          <img src={chosenImage} alt="" className="size-8 shrink-0 rounded-full object-cover" />
        ) : null}
        <Select id={id} value={choice} onChange={(event) => chooseArtistProfile(event.target.value)}>
          <option value={ALL_PROFILES}>{ARTIST_PROFILE_MESSAGES.allProfiles}</option>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.name}
              {profile.canRelease ? '' : ' (read-only)'}
            </option>
          ))}
        </Select>
      </div>
      <Link to={paths.artistProfiles} className="inline-block text-xs text-brand-300 hover:underline">
        Manage artist profiles
      </Link>
    </div>
  );
}
