import { currentLocale } from '../i18n/i18n';

const tag = () => (currentLocale() === 'en' ? 'en-GB' : 'th-TH');

/** An amount in major units (baht, kip) as the API answers most amounts. */
export function money(amount: number, currency = 'THB'): string {
  const code = currency === 'BAHT' ? 'THB' : currency;
  return new Intl.NumberFormat(tag(), { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol', minimumFractionDigits: code === 'LAK' ? 0 : 2, maximumFractionDigits: code === 'LAK' ? 0 : 2 }).format(amount);
}

/** Minor units (satang, the ledger's figures) as money. */
export function minor(amount: number, currency = 'THB'): string {
  return money(amount / 100, currency);
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(tag(), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Bangkok' }).format(new Date(iso));
}

/** How long ago, in the largest whole unit (minutes, hours, days). */
export function age(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const minutes = Math.max(0, Math.round((now - new Date(iso).getTime()) / 60_000));
  const format = new Intl.RelativeTimeFormat(tag(), { numeric: 'auto' });
  if (minutes < 60) return format.format(-minutes, 'minute');
  if (minutes < 48 * 60) return format.format(-Math.round(minutes / 60), 'hour');
  return format.format(-Math.round(minutes / 1440), 'day');
}
