import i18next from 'i18next';
import { LOCALES, type Locale } from '@mw/contract/constants';

/**
 * A lazily loaded feature's own i18next namespace: its th, la and en texts live in the feature's
 * chunk (features/<feature>/locales.ts) and join i18next when that chunk is evaluated — at once, or
 * when i18next is set up if that has not happened yet. Returns the namespace's name, which the
 * feature's screens pass to `useTranslation`: importing it is what brings the texts along, so a
 * screen cannot use the namespace without them. Typed keys: i18next.d.ts lists every namespace.
 */
export function addNamespace<const N extends string>(ns: N, resources: Readonly<Record<Locale, object>>): N {
  const add = () => {
    for (const locale of LOCALES) i18next.addResourceBundle(locale, ns, resources[locale], true, true);
  };
  if (i18next.isInitialized) add();
  else i18next.on('initialized', add);
  return ns;
}
