import { parseBaht, type Satang } from '@mw/contract/money';

/**
 * An amount as a member types it, in satang, or null when it is not an amount. Thousands commas
 * are dropped ("1,000"); a lone comma before one or two final digits is the decimal mark the Lao
 * locale shows ("100,50").
 */
export function parseAmountInput(text: string): Satang | null {
  let value = text.replace(/[\s\u00a0฿]/g, '');
  if (value.includes('.')) value = value.replace(/,/g, '');
  else if (/^\d+,\d{1,2}$/.test(value)) value = value.replace(',', '.');
  else value = value.replace(/,/g, '');
  return value === '' ? null : parseBaht(value);
}
