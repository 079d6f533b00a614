import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import type { Language } from '../bridge';
import { catalog as defaultCatalog } from './locales';
import type { Catalog } from './catalog';
import { makeT, type TFunction } from './translate';

interface I18n {
  lang: Language;
  t: TFunction;
}

const I18nContext = createContext<I18n>({ lang: 'en', t: makeT(defaultCatalog, 'en') });

export function I18nProvider({
  lang,
  catalog = defaultCatalog,
  children,
}: {
  lang: Language;
  catalog?: Catalog;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ lang, t: makeT(catalog, lang) }), [lang, catalog]);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = value.t('shell.app.name');
  }, [lang, value]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  return useContext(I18nContext);
}

export function useT(): TFunction {
  return useContext(I18nContext).t;
}
