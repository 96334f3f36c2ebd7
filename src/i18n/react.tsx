// The server-rendered pages' translator, handed down by <Document> so every component of a page
// can call useT() without a prop through every level.
import { createContext, useContext } from "react";
import { translator, type T } from "./catalogue.ts";
import type { Locale } from "./locales.ts";

const I18nContext = createContext<{ locale: Locale; t: T }>({ locale: "en", t: translator("en") });

export const I18nProvider = I18nContext.Provider;
export const useT = (): T => useContext(I18nContext).t;
export const useLocale = (): Locale => useContext(I18nContext).locale;
