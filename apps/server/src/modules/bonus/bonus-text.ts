import { formatMajor } from '../../lib/money-text';
import type { Currency } from '../../money';
import type { BonusCurrencyAmounts } from './tables';

/** The bonus card's words in the member app's three languages. */
export interface BonusText {
  th: string;
  la: string;
  en: string;
}

/** The figures of a rule the card is written from (amounts in minor units of `currency`). */
export interface BonusRuleFigures {
  type: 'limit' | 'day' | 'week';
  percent: number;
  turnoverMultiple: number;
  maxReceived: number;
  amounts: BonusCurrencyAmounts;
  currency: Currency;
}

/** A percent or a multiple without trailing zeros (12, 12.5). */
function figure(value: number): string {
  return String(Math.round(value * 100) / 100);
}

const PERIOD = {
  limit: { th: (n: number) => `รับได้ ${n} ครั้ง`, la: (n: number) => `ຮັບໄດ້ ${n} ຄັ້ງ`, en: (n: number) => `${n} ${n === 1 ? 'time' : 'times'} in all` },
  day: { th: (n: number) => `รับได้ ${n} ครั้งต่อวัน`, la: (n: number) => `ຮັບໄດ້ ${n} ຄັ້ງຕໍ່ມື້`, en: (n: number) => `${n} ${n === 1 ? 'time' : 'times'} a day` },
  week: { th: (n: number) => `รับได้ ${n} ครั้งต่อสัปดาห์`, la: (n: number) => `ຮັບໄດ້ ${n} ຄັ້ງຕໍ່ອາທິດ`, en: (n: number) => `${n} ${n === 1 ? 'time' : 'times'} a week` },
} as const;

/**
 * The bonus card's text, generated from the rule itself (percent, cap, minimum deposit, turnover,
 * period), so a rule change is what players read at once; banners are decoration only.
 */
export function bonusText(rule: BonusRuleFigures): BonusText {
  const percent = figure(rule.percent);
  const cap = formatMajor(rule.amounts.maxBonus, rule.currency);
  const min = formatMajor(rule.amounts.minDeposit, rule.currency);
  const turnover = figure(rule.turnoverMultiple);
  const period = PERIOD[rule.type];
  return {
    th: `โบนัส ${percent}% ของยอดฝาก สูงสุด ${cap} · ฝากขั้นต่ำ ${min} · ทำยอดเทิร์น ${turnover} เท่าของ (ยอดฝาก + โบนัส) · ${period.th(rule.maxReceived)}`,
    la: `ໂບນັດ ${percent}% ຂອງຍອດຝາກ ສູງສຸດ ${cap} · ຝາກຂັ້ນຕ່ຳ ${min} · ເທີນໂອເວີ ${turnover} ເທົ່າຂອງ (ຍອດຝາກ + ໂບນັດ) · ${period.la(rule.maxReceived)}`,
    en: `${percent}% bonus on your deposit, up to ${cap} · minimum deposit ${min} · turnover ${turnover}× (deposit + bonus) · ${period.en(rule.maxReceived)}`,
  };
}
