import { createContext, useContext } from 'react';
import type { EffectiveSetting, SettingDefinition, SettingScope } from '@youyou/contracts';

/** What every setting of a settings page shares: the layer it writes, the schema and the values. */
export interface SettingsScope {
  target: SettingScope;
  definitions: ReadonlyMap<string, SettingDefinition>;
  effective: ReadonlyMap<string, EffectiveSetting>;
}

export const SettingsScopeContext = createContext<SettingsScope | undefined>(undefined);

export function useSettingsScope(): SettingsScope {
  const scope = useContext(SettingsScopeContext);
  if (scope === undefined) throw new Error('a setting is drawn outside a settings page');
  return scope;
}
