import 'i18next';
import type { Messages } from './messages';
import type { BonusMessages } from '../features/bonus/locales';
import type { ChatMessages } from '../features/chat/locales';
import type { DepositMessages } from '../features/deposit/locales';
import type { RewardsMessages } from '../features/rewards/locales';
import type { SpinMessages } from '../features/spin/locales';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // `translation`: the locale files (i18n/*.ts); the others: a lazily loaded feature's own
    // namespace (features/<ns>/locales.ts, added with its chunk by i18n/namespaces.ts).
    resources: {
      translation: Messages;
      bonus: BonusMessages;
      chat: ChatMessages;
      deposit: DepositMessages;
      rewards: RewardsMessages;
      spin: SpinMessages;
    };
  }
}
