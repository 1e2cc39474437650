import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PROFILE_ID } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { CONVERSATIONS_KEY, conversationKey } from '../conversation-state/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';
import { SETTINGS_KEY, useProfiles } from './customise-queries.ts';

/**
 * The profile a conversation about to be created will use (the new-conversation flow): undefined
 * leaves it to the `profiles.default` setting.
 */
export function NewConversationProfilePicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (profileId: string | undefined) => void;
}): ReactElement {
  const t = useTranslation();
  const profiles = useProfiles();
  return (
    <label className="profile-picker" title={t('profiles.pickerHint')}>
      <span className="visually-hidden">{t('profiles.picker')}</span>
      <select
        className="input"
        aria-label={t('profiles.picker')}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      >
        <option value="">{t('profiles.usual')}</option>
        {(profiles.data ?? []).map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The conversation's agent profile (spec §4.7), in its header: switching applies from the next
 * run on.
 */
export function ProfilePicker({
  conversationId,
  profileId,
}: {
  conversationId: string;
  profileId: string | null;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const profiles = useProfiles();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <label className="profile-picker" title={error ?? t('profiles.pickerHint')}>
      <span className="visually-hidden">{t('profiles.picker')}</span>
      <select
        className="input"
        aria-label={t('profiles.picker')}
        value={profileId ?? DEFAULT_PROFILE_ID}
        onChange={(event) => {
          setError(undefined);
          const chosen = event.target.value;
          api
            .updateConversation(conversationId, {
              profile_id: chosen === DEFAULT_PROFILE_ID ? null : chosen,
            })
            .then(async () => {
              await queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
              await queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
              await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
            })
            .catch((failure: unknown) => setError(errorMessage(failure)));
        }}
      >
        {(profiles.data ?? []).map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
    </label>
  );
}
