/** Business constants of spec section 9, shared by the server and the web app. */
export const CLIENT_VERSION = '1.1.14';

export const REQUEST_TIMEOUT_MS = 60_000;
export const UPLOAD_TIMEOUT_MS = 300_000;
export const LOADER_DELAY_MS = 200;
export const AGREEMENT_DELAY_MS = 1_500;
export const CLAIM_DEBOUNCE_MS = 500;
export const RESIZE_DEBOUNCE_MS = 500;
export const REGISTER_REDIRECT_MS = 2_000;
export const WHEEL_RESULT_DELAY_MS = 2_000;
export const TOAST_MS = 4_000;

export const CHAT_HISTORY_PAGE = 10;
export const CHAT_TEXT_MAX = 2_000;
export const CHAT_IMAGE_MAX_MB = 10;
export const CHAT_VIDEO_MAX_MB = 20;
export const CHAT_SOCKET_CHECK_MS = 5_000;
export const CHAT_MARK_READ_THROTTLE_MS = 1_000;
export const CHAT_SEND_TIME_FETCH_MS = 500;
export const CHAT_ACCEPTED_TYPES = ['mp4', 'quicktime', 'png', 'jpeg', 'jpg', 'gif'] as const;

export const PHONE_LENGTH = 10;
export const ENGLISH_ONLY_NAME_BANKS = ['KTB', 'TMB', 'BBL'] as const;
export const LAOS_CURRENCIES = ['LAK', 'BAHT'] as const;
export type Currency = (typeof LAOS_CURRENCIES)[number];
export const DEFAULT_LAOS_CURRENCY: Currency = 'LAK';
export const LOCALES = ['th', 'la', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'th';
export const DEFAULT_LAOS_LOCALE: Locale = 'la';
/** BCP 47 tags for Intl and the html lang attribute (the app's id `la` is Lao, `lo`). */
export const LOCALE_TAGS: Record<Locale, string> = { th: 'th-TH', la: 'lo-LA', en: 'en-GB' };

/** The baht figures (spec section 9); each money rule with an amount has one per member currency (currency-figures.ts). */
export const MIN_TRANSFER_BAHT = 1;
/** A member's currency (BAHT or LAK); each money rule's figure per currency is in currency-figures.ts. */
export type MemberCurrency = 'BAHT' | 'LAK';
/** The sandbox top-up's preset amounts per currency (the member's, BAHT or LAK), in major units: ฿100/500/1,000, ₭50,000/100,000/500,000. */
export const DEMO_TOP_UP_PRESETS: Record<MemberCurrency, readonly number[]> = { BAHT: [100, 500, 1000], LAK: [50_000, 100_000, 500_000] };
export const EWALLET_MIN_BAHT = 2;
export const QR_MINIMUMS = { generic: 1, KBANK: 1, WW: 100, PAYONEX: 100, PAYTIMZ: 10, ZPAY: 10 } as const;
export type QrMinimumCode = keyof typeof QR_MINIMUMS;
export const QR_PRESETS = {
  generic: [10, 20, 50, 100, 500, 1000],
  KBANK: [10, 20, 50, 100, 500, 1000],
  WW: [100, 200, 300, 500, 1000],
  PAYTIMZ: [10, 50, 100, 500, 1000],
  PAYONEX: [100, 200, 300, 500, 1000],
  ZPAY: [10, 50, 100, 500, 1000],
} as const;
export const PAYMENT_PROVIDERS = ['WW', 'PAYTIMZ', 'PAYONEX', 'ZPAY'] as const;
export const DEPOSIT_BANK_CODES = ['SCB', 'KBANK', 'GSB', 'BCEL'] as const;

export const PAGE_SIZE = 10;
export const COUPON_PAGE_SIZE = 3;
export const PAGINATION_BEFORE = 3;
export const PAGINATION_AFTER = 1;
/** Largest `limit` a paged call accepts. */
export const MAX_PAGE_LIMIT = 100;

export const WHEEL_MAX_SIZE = 350;
export const WHEEL_WINDOW_FRACTION = 0.85;

/** The 16 game provider codes of spec section 2. */
export const GAME_CODES = [
  'JOKER', 'SEXYGAME', 'BETFLIX', 'ASKMEBET', 'UFABET', 'SUPERSLOT', 'PG', 'SLOTXO', 'IMI', 'USUN',
  'AREASLOT', 'CIRCUS', 'SLOTRACHA', 'PGSLOT', 'JOKER2', 'HUAYHD',
] as const;
export type GameCode = (typeof GAME_CODES)[number];
export const WALLET_CODE = 'WALLET';

/** Storage keys of spec section 3. */
/**
 * The cookie the web app writes with the chosen language (the same as STORAGE_KEYS.locale): the
 * server picks the prerendered guest page of that language with it (apps/server/src/http/app-document.ts).
 */
export const LOCALE_COOKIE = 'mw-locale';

/** The guest pages prerendered at build time in each locale (apps/web/scripts/prerender.mjs). */
export const PRERENDERED_ROUTES = ['/login', '/register', '/howto', '/contact', '/terminated'] as const;
export type PrerenderedRoute = (typeof PRERENDERED_ROUTES)[number];

export const STORAGE_KEYS = {
  token: 'token',
  locale: 'locale',
  agreement: 'remember-agreement',
  lastSync: 'last_sync',
  inviterCode: 'code',
  guestId: 'guest-id',
  /** Added (session storage): the phone and otpToken this tab verified at registration, JSON. */
  registerOtp: 'register-otp',
} as const;
