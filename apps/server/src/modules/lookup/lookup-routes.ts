import { toBaht } from '@mw/contract/money';
import type { Handlers } from '../../http/handlers';
import type { Services } from '../../platform/services';
import { pickLocale, type Localized } from '../settings/settings-service';

/** The lookups of spec section 7 but the deposit channels (the deposit module's), read from the database (tables banks, sources, settings). */
export function lookupHandlers({ lookups, settings }: Services): Handlers {
  return {
    lookupBanks: async () => lookups.banks(),
    lookupSources: async () => lookups.sources(),
    lookupConditions: async ({ locale }) => pickLocale(await settings.get<Localized<string[]>>('conditions', { th: [], la: [], en: [] }), locale),
    lookupAgreements: async ({ locale }) => pickLocale(await settings.get<Localized<string[]>>('agreements', { th: [], la: [], en: [] }), locale),
    lookupInfo: async () => settings.get('info', { name: 'Member Wallet', website: '' }),
    lookupContact: async ({ locale }) => {
      const contact = await settings.get('contact', { contactText: { th: '', la: '', en: '' }, lineLink: '', lineName: '', lineQR: '' });
      return { ...contact, contactText: pickLocale<string>(contact.contactText, locale) };
    },
    lookupWithdraw: async () => {
      const limits = await settings.get('withdrawLimits', { withdrawMinSatang: 10_000, withdrawMaxSatang: 5_000_000 });
      return { withdrawMin: toBaht(limits.withdrawMinSatang), withdrawMax: toBaht(limits.withdrawMaxSatang) };
    },
    lookupActive: async () => ({ active: await settings.siteActive() }),
    lookupRegisterOTP: async () => ({ registerOTP: await settings.get('registerOTP', true) }),
    lookupEnableChatWidget: async () => ({ enableChatWidget: await settings.get('enableChatWidget', false) }),
  };
}
