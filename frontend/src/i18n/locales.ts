import { buildCatalog, toLocaleFiles } from './catalog';

/** Every message file of the repo's locales/ folder, shared with Go. */
const modules = import.meta.glob('../../../locales/*.json', { eager: true });

export const localeFiles = toLocaleFiles(modules);
export const catalog = buildCatalog(localeFiles);
