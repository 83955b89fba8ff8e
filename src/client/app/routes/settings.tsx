/** Route module: the Settings area. */
export { default } from '../../features/settings/SettingsPage.tsx';
