import {
  contextSharesProblems,
  defaultProfileSlots,
  PROFILE_CONTEXT_SLOTS,
  PROFILE_CONTEXT_SLOTS_VERSION,
  type ProfileContextAssembly,
  type ProfileContextSlot,
  type ProfileSlotSetting,
} from '@youyou/contracts';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';

/** A share as the editor shows it: a percentage, rounded to hundredths. */
const percentOf = (share: number): number => Math.round(share * 10_000) / 100;

/**
 * A profile's context slots (spec §4.10 "各槽位带优先级与份额上限（画像可调）"): per slot its
 * priority and its share of the budget in per cent (empty: no share, the slot takes what is left),
 * the sum of the shares, and what is wrong before saving (the server refuses the same with
 * CONTEXT_SHARES_INVALID). Unset, the profile uses the default slots.
 */
export function ContextSlotsEditor({
  value,
  readOnly,
  onChange,
}: {
  value: ProfileContextAssembly | undefined;
  readOnly: boolean;
  onChange: (next: ProfileContextAssembly | undefined) => void;
}): ReactElement {
  const t = useTranslation();
  const slots: Record<ProfileContextSlot, ProfileSlotSetting> = { ...defaultProfileSlots(), ...value?.slots };
  const change = (slot: ProfileContextSlot, setting: Partial<ProfileSlotSetting>): void =>
    onChange({
      version: PROFILE_CONTEXT_SLOTS_VERSION,
      slots: { ...slots, [slot]: { ...slots[slot], ...setting } },
    });
  const sum = PROFILE_CONTEXT_SLOTS.reduce((total, slot) => total + (slots[slot].share ?? 0), 0);
  const problems = contextSharesProblems(slots);
  return (
    <fieldset className="profile-group context-slots" data-testid="context-slots">
      <legend>{t('profiles.slots')}</legend>
      <p className="settings-hint">{t('profiles.slots.intro')}</p>
      <table>
        <thead>
          <tr>
            <th>{t('profiles.slots.slot')}</th>
            <th>{t('profiles.slots.priority')}</th>
            <th>{t('profiles.slots.share')}</th>
          </tr>
        </thead>
        <tbody>
          {PROFILE_CONTEXT_SLOTS.map((slot) => {
            const name = t(`profiles.slots.${slot}`);
            const setting = slots[slot];
            return (
              <tr key={slot}>
                <td>{name}</td>
                <td>
                  <input
                    type="number"
                    min={0}
                    max={100}
                    step={1}
                    disabled={readOnly}
                    aria-label={t('profiles.slots.priorityOf', { slot: name })}
                    value={setting.priority}
                    onChange={(event) => {
                      const priority = Number(event.target.value);
                      if (event.target.value !== '' && Number.isInteger(priority)) change(slot, { priority });
                    }}
                  />
                </td>
                <td>
                  <input
                    type="number"
                    min={0}
                    max={100}
                    step="any"
                    disabled={readOnly}
                    aria-label={t('profiles.slots.shareOf', { slot: name })}
                    placeholder={t('profiles.slots.noShare')}
                    value={setting.share === null ? '' : percentOf(setting.share)}
                    onChange={(event) =>
                      change(slot, {
                        share: event.target.value.trim() === '' ? null : Number(event.target.value) / 100,
                      })
                    }
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p role="status" data-testid="context-slots-sum">
        {t('profiles.slots.sum', { sum: percentOf(sum) })}
        {value === undefined && ` ${t('profiles.slots.defaults')}`}
      </p>
      {problems.length > 0 && (
        <p className="field-error" role="alert">
          {problems.map((problem) => problem.message).join('; ')}
        </p>
      )}
      {value !== undefined && !readOnly && (
        <button type="button" className="button small" onClick={() => onChange(undefined)}>
          {t('profiles.slots.reset')}
        </button>
      )}
    </fieldset>
  );
}
