import { createContext, useContext } from 'react';
import { createSettingsApi, type SettingsApi } from '../../bridge/settingsApi';

/**
 * The Settings/System API the settings, onboarding, theme and notification features use. By default
 * it talks through the page's transport (Wails or HTTP); tests provide one built on a fake.
 */
const SettingsApiContext = createContext<SettingsApi>(createSettingsApi());

export const SettingsApiProvider = SettingsApiContext.Provider;

export function useSettingsApi(): SettingsApi {
  return useContext(SettingsApiContext);
}
