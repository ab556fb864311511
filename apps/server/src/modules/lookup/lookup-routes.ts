import { toBaht } from '@mw/contract/money';
import type { Handlers } from '../../http/handlers';
import { withdrawLimitsOf } from '../../lib/withdraw-limits';
import { ledgerCurrency } from '../../money';
import type { Services } from '../../platform/services';
import { pickLocale, type Localized } from '../../lib/localized';

/** The lookups of spec section 7 but the deposit channels (the deposit module's), read from the database (tables banks, sources, settings). */
export function lookupHandlers(services: Services): Handlers {
  const { lookups, settings, memberDirectory, config } = services;
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
    // The figures of the asking member's currency (a guest: the site's, kip on the Lao site); the
    // transfer minimum is the wallet module's (read when asked: that module is set up after this one).
    lookupWithdraw: async ({ member }) => {
      const found = member ? await memberDirectory.get(member.memberId).catch(() => null) : null;
      const currency = found ? ledgerCurrency(found.currency) : config.LAOS_MODE ? 'LAK' : 'THB';
      const limits = await withdrawLimitsOf(settings, currency);
      return { withdrawMin: toBaht(limits.min), withdrawMax: toBaht(limits.max), currency, transferMin: toBaht(services.transfers.minimum(currency)) };
    },
    lookupActive: async () => ({ active: await settings.siteActive() }),
    lookupRegisterOTP: async () => ({ registerOTP: await settings.get('registerOTP', true) }),
    lookupEnableChatWidget: async () => ({ enableChatWidget: await settings.get('enableChatWidget', false) }),
  };
}
