import { useQuery } from '@tanstack/react-query';
import type { AgentProfile } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';

/** Under the extensions' key: installing or removing one refreshes its templates. */
export const PROFILE_TEMPLATES_KEY = ['extensions', 'profile-templates'] as const;

/**
 * "From a template" in Settings → Profiles (spec §4.7): the installed extensions' profile
 * templates, one of which becomes a profile of yours, opened for fine-tuning. Nothing shows
 * while no extension provides a template.
 */
export function ProfileTemplatePicker({
  onCreate,
}: {
  /** Makes the profile (the caller reports failures) and opens it. */
  onCreate: (create: () => Promise<AgentProfile>) => void;
}): ReactElement | null {
  const t = useTranslation();
  const { api } = useServices();
  const templates = useQuery({
    queryKey: PROFILE_TEMPLATES_KEY,
    queryFn: () => api.listProfileTemplates(),
  });
  const [chosen, setChosen] = useState('');
  const list = templates.data ?? [];
  if (list.length === 0) return null;
  const selected = list.some((template) => template.id === chosen) ? chosen : (list[0]?.id ?? '');
  return (
    <div className="profile-template-picker">
      <select
        aria-label={t('profiles.template')}
        value={selected}
        onChange={(event) => setChosen(event.target.value)}
      >
        {list.map((template) => (
          <option key={template.id} value={template.id}>
            {`${template.profile.name} · ${template.source}`}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button"
        onClick={() => onCreate(() => api.createProfileFromTemplate(selected))}
      >
        {t('profiles.fromTemplate')}
      </button>
    </div>
  );
}
