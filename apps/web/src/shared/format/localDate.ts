import { LOCALE_TAGS, type Locale } from '@mw/contract/constants';

/**
 * Dates and times in words, through Intl with the member's locale (th-TH, lo-LA, en-GB). A browser
 * whose Intl has no Lao data (Chromium's own ICU lacks it: it answers "November 25, 2026" or
 * "2026 M11 25" for lo) gets the Lao form written here: day, month name, year; 24-hour time.
 */
const LAO_MONTHS = ['ມັງກອນ', 'ກຸມພາ', 'ມີນາ', 'ເມສາ', 'ພຶດສະພາ', 'ມິຖຸນາ', 'ກໍລະກົດ', 'ສິງຫາ', 'ກັນຍາ', 'ຕຸລາ', 'ພະຈິກ', 'ທັນວາ'];

let laoSupported: boolean | null = null;
function intlKnowsLao(): boolean {
  laoSupported ??= Intl.DateTimeFormat.supportedLocalesOf(['lo']).length > 0;
  return laoSupported;
}

export interface LocalDateFormat {
  /** "25 พฤศจิกายน 2569", "25 ພະຈິກ 2026", "25 November 2026". */
  day: (date: Date) => string;
  /** "09:05". */
  time: (date: Date) => string;
}

const pad = (value: number) => String(value).padStart(2, '0');

export function localDateFormat(locale: Locale): LocalDateFormat {
  if (locale === 'la' && !intlKnowsLao()) {
    return {
      day: (date) => `${date.getDate()} ${LAO_MONTHS[date.getMonth()] ?? ''} ${date.getFullYear()}`,
      time: (date) => `${pad(date.getHours())}:${pad(date.getMinutes())}`,
    };
  }
  const day = new Intl.DateTimeFormat(LOCALE_TAGS[locale], { day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat(LOCALE_TAGS[locale], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return { day: (date) => day.format(date), time: (date) => time.format(date) };
}
