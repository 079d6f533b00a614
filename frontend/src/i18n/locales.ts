import { catalogOf, toLocaleFiles, type LocaleFile, type Messages } from './catalog';

/** Every message file of the repo's locales/ folder, shared with Go. */
const modules = import.meta.glob<Messages>('../../../locales/*.json', { eager: true, import: 'default' });

/** Every message file, by area and language: what the tests check (parity, the keys in use). */
export const localeFiles = (): LocaleFile[] => toLocaleFiles(modules);

/** The page's catalog, built from the files as they are (the tests vouch for their contents). */
export const catalog = catalogOf(modules);
