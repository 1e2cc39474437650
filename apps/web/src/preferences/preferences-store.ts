import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** A UI language the user can choose; i18n holds a catalogue for each. */
export type Language = 'en' | 'zh-CN';

export type ThemePreference = 'light' | 'dark' | 'system';
export type Density = 'comfortable' | 'compact';
export type SendKey = 'enter' | 'ctrl-enter';
export type FoldPreference = 'fold' | 'keep';

/** The preferences of spec §4.15 that are not layout: they apply at once and sync to the server. */
export interface Preferences {
  theme: ThemePreference;
  density: Density;
  /** Base font size in px. */
  fontSize: number;
  /** Undefined: follow the browser. */
  language: Language | undefined;
  sendKey: SendKey;
  fold: FoldPreference;
  streamingAnimation: boolean;
  /** The model the composer uses for new messages; undefined: the server's default. */
  modelId: string | undefined;
  /** A custom accent colour (`#rrggbb`) over the theme's tokens; undefined: the theme's own. */
  accent: string | undefined;
  /** Opt-in: a browser notification when the agent asks something while the tab is hidden. */
  notifyQuestions: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  density: 'comfortable',
  fontSize: 15,
  language: undefined,
  sendKey: 'enter',
  fold: 'fold',
  streamingAnimation: true,
  modelId: undefined,
  accent: undefined,
  notifyQuestions: false,
};

export const FONT_SIZES: readonly number[] = [13, 14, 15, 16, 18];

interface PreferencesActions {
  set: (changes: Partial<Preferences>) => void;
  /** Values the server had (another browser's choices); local defaults do not override them. */
  merge: (fromServer: Readonly<Record<string, unknown>>) => void;
}

function validPreference(key: keyof Preferences, value: unknown): boolean {
  switch (key) {
    case 'theme':
      return value === 'light' || value === 'dark' || value === 'system';
    case 'density':
      return value === 'comfortable' || value === 'compact';
    case 'fontSize':
      return typeof value === 'number' && value >= 11 && value <= 24;
    case 'language':
      return value === 'en' || value === 'zh-CN' || value === undefined;
    case 'sendKey':
      return value === 'enter' || value === 'ctrl-enter';
    case 'fold':
      return value === 'fold' || value === 'keep';
    case 'streamingAnimation':
    case 'notifyQuestions':
      return typeof value === 'boolean';
    case 'modelId':
      return typeof value === 'string' || value === undefined;
    case 'accent':
      return value === undefined || (typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value));
  }
}

/** Picks the known, valid preferences out of anything (a server answer, old localStorage). */
export function sanitizePreferences(input: Readonly<Record<string, unknown>>): Partial<Preferences> {
  const output: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[]) {
    if (key in input && validPreference(key, input[key])) output[key] = input[key];
  }
  return output as Partial<Preferences>;
}

/**
 * UI preferences in a small Zustand store persisted to localStorage; `preferences-sync.ts` writes
 * them to the server too.
 *
 * @example
 * usePreferences.getState().set({ theme: 'dark' });
 * const theme = usePreferences((state) => state.theme);
 */
export const usePreferences = create<Preferences & PreferencesActions>()(
  persist(
    (set) => ({
      ...DEFAULT_PREFERENCES,
      set: (changes) => set(sanitizePreferences(changes)),
      merge: (fromServer) => set(sanitizePreferences(fromServer)),
    }),
    {
      name: 'youyou.preferences',
      version: 1,
      partialize: (state) => {
        const { set: _set, merge: _merge, ...preferences } = state;
        return preferences;
      },
    },
  ),
);

/** The preferences without the actions, for syncing. */
export function preferencesOf(state: Preferences & PreferencesActions): Preferences {
  const { set: _set, merge: _merge, ...preferences } = state;
  return preferences;
}
