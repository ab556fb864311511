import { defaultMemberMessages } from './defaultMemberMessages';
import { registerDefaultMessages } from './i18n';

// Imported by the member layout: the default locale's member texts join its guest texts before any
// member screen renders. (Other locales load whole, both halves, when chosen.)
registerDefaultMessages(defaultMemberMessages);
