/**
 * A message for a person: a translation key (src/shared/i18n/locales) with its placeholders, checked by the compiler
 * (a `TranslationKey`, see src/shared/i18n/index.ts).
 */
import type { TranslationKey, TranslationParams } from "./i18n";

export type Message = TranslationKey | { key: TranslationKey; params?: TranslationParams };

export const message = (key: TranslationKey, params?: TranslationParams): Message => ({ key, params });
