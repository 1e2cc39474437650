export { startPreferencesSync } from './preferences-sync.ts';
