// EMVCo TLV payloads used by Thai payments: the merchant-presented "Thai QR" (PromptPay credit
// transfer, tag 29, and bill payment, tag 30) and the "slip verify" mini-QR printed on Thai bank
// transfer slips. Pure functions: no I/O, no clock, no randomness.
//
// Every field is tag (2 digits) + length (2 digits, in characters) + value. Lengths count Unicode
// code points; the CRC is taken over the UTF-8 bytes (the same thing for the ASCII payloads built
// here). Amounts are integer satang end to end: no floating point touches them.

/** Why a payload was refused. */
export type EmvcoErrorReason =
  /** Not readable as TLV: a bad tag or length, or a value cut short. */
  | 'MALFORMED'
  /** Readable TLV, but its checksum does not match its content. */
  | 'BAD_CRC'
  /** Readable TLV, but not a slip-verify payload (missing tags, wrong API type, not TH). */
  | 'NOT_SLIP'
  /** Readable TLV, but not an EMVCo merchant-presented QR (no `00`=`01` first, no CRC tag last). */
  | 'NOT_MERCHANT_QR'
  /** A builder was given a value it cannot encode. */
  | 'INVALID_INPUT';

/** Every refusal from this module: `reason` says which kind. */
export class EmvcoError extends Error {
  constructor(
    readonly reason: EmvcoErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'EmvcoError';
  }
}

/** One TLV field as it appears in a payload. */
export interface TlvField {
  tag: string;
  value: string;
}

const TWO_DIGITS = /^\d{2}$/;
const HEX = /^[0-9A-Fa-f]+$/;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const REF = /^[A-Z0-9]{1,20}$/;

const invalid = (message: string) => new EmvcoError('INVALID_INPUT', message);
const malformed = (message: string) => new EmvcoError('MALFORMED', message);

// ---------------------------------------------------------------------------------------------
// CRC and TLV

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes of
 * `text`, as 4 upper-case hex digits. `crc16ccitt('123456789') === '29B1'`.
 */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const charCount = (value: string) => Array.from(value).length;

/**
 * One TLV field: `tag` (2 digits) + length (2 decimal digits) + `value`. Throws `EmvcoError`
 * (`INVALID_INPUT`) for a bad tag or a value that is empty or longer than 99 characters.
 */
export function tlv(tag: string, value: string): string {
  if (!TWO_DIGITS.test(tag)) throw invalid(`TLV tag must be 2 digits, got "${tag}"`);
  const length = charCount(value);
  if (length < 1 || length > 99) throw invalid(`TLV tag ${tag}: value must be 1-99 characters, got ${length}`);
  return `${tag}${String(length).padStart(2, '0')}${value}`;
}

/**
 * Walks `text` as a flat TLV sequence. When `shortTail` names a tag, that tag, declared with
 * length 04, may end the text with fewer (hex) characters (some bank apps print a slip CRC without
 * its leading zeros); the short value is returned as written.
 */
function walkTlv(text: string, shortTail: string | null): TlvField[] {
  const chars = Array.from(text);
  const fields: TlvField[] = [];
  let at = 0;
  while (at < chars.length) {
    if (at + 4 > chars.length) throw malformed(`truncated field header at character ${at}`);
    const tag = chars.slice(at, at + 2).join('');
    const lengthText = chars.slice(at + 2, at + 4).join('');
    if (!TWO_DIGITS.test(tag)) throw malformed(`bad tag "${tag}" at character ${at}`);
    if (!TWO_DIGITS.test(lengthText)) throw malformed(`bad length "${lengthText}" for tag ${tag}`);
    const length = Number(lengthText);
    const start = at + 4;
    const end = start + length;
    if (end > chars.length) {
      const rest = chars.slice(start).join('');
      if (tag === shortTail && length === 4 && rest.length > 0 && HEX.test(rest)) {
        fields.push({ tag, value: rest });
        break;
      }
      throw malformed(`tag ${tag} declares ${length} characters, only ${chars.length - start} remain`);
    }
    fields.push({ tag, value: chars.slice(start, end).join('') });
    at = end;
  }
  return fields;
}

/**
 * Splits a TLV string into its fields, in order. Throws `EmvcoError` (`MALFORMED`) on a non-digit
 * tag or length, or a value running past the end. An empty string gives no fields.
 */
export function parseTlv(text: string): TlvField[] {
  return walkTlv(text, null);
}

/** Adds a 4-hex-digit CRC tag to `body`: the CRC covers the body and the tag header itself. */
function withCrc(body: string, tag: string): string {
  const covered = `${body}${tag}04`;
  return `${covered}${crc16ccitt(covered)}`;
}

/** Parses a template's sub-fields; a template that is not TLV is malformed. */
function subFields(field: TlvField): TlvField[] {
  try {
    return parseTlv(field.value);
  } catch (error) {
    if (error instanceof EmvcoError) throw malformed(`tag ${field.tag} is not a TLV template: ${error.message}`);
    throw error;
  }
}

const valueOf = (fields: readonly TlvField[], tag: string): string | null => fields.find((f) => f.tag === tag)?.value ?? null;

function assertNoDuplicates(fields: readonly TlvField[], make: (message: string) => EmvcoError): void {
  const seen = new Set<string>();
  for (const { tag } of fields) {
    if (seen.has(tag)) throw make(`tag ${tag} appears more than once`);
    seen.add(tag);
  }
}

// ---------------------------------------------------------------------------------------------
// Thai QR (EMVCo merchant-presented)

/** AID of a PromptPay credit transfer (tag 29). */
export const PROMPTPAY_AID = 'A000000677010111';
/** AID of a Thai QR bill payment (tag 30). */
export const BILL_PAYMENT_AID = 'A000000677010112';

/** Who is paid by a Thai QR we build. */
export type ThaiQrMerchantInput =
  | { kind: 'billPayment'; billerId: string; ref1: string; ref2?: string }
  | {
      kind: 'promptpay';
      /**
       * A mobile phone (`0812345678`, `+66812345678`, `66812345678` or `0066812345678`), a 13-digit
       * national or tax id, or a 15-digit e-wallet id.
       */
      target: string;
    };

/** Everything `buildThaiQr` needs. */
export interface ThaiQrInput {
  merchant: ThaiQrMerchantInput;
  /** Integer satang, 1 to 999,999,999,999 (9,999,999,999.99). Absent: a static QR the payer fills in. */
  amountSatang?: number;
  /** ISO 4217 numeric: `764` THB (default) or `418` LAK; must agree with `country`. */
  currency?: '764' | '418';
  /** `TH` (default) or `LA`; must agree with `currency`. */
  country?: 'TH' | 'LA';
  /** Tag 59, printable ASCII, at most 25 characters. */
  merchantName?: string;
  /** Tag 60, printable ASCII, at most 15 characters. */
  merchantCity?: string;
  /** Tag 62 sub-tag 07 (terminal label; promptparse calls it "ref3"), printable ASCII, at most 25 characters. */
  terminalRef?: string;
}

/** PromptPay proxy kinds, by their tag-29 sub-tag. */
const PROXY_BY_SUBTAG = { '01': 'phone', '02': 'nationalId', '03': 'eWallet', '04': 'bankAccount' } as const;
/** The kind of PromptPay id a credit transfer names. */
export type PromptPayProxy = (typeof PROXY_BY_SUBTAG)[keyof typeof PROXY_BY_SUBTAG];

/** Who is paid, as read from a Thai QR. */
export type ThaiQrMerchant =
  | { kind: 'billPayment'; billerId: string; ref1: string; ref2: string | null }
  /** `target` as carried: a phone reads `0066` + 9 digits. */
  | { kind: 'promptpay'; proxy: PromptPayProxy; target: string }
  /** A merchant account template (tags 26-51) that is neither Thai QR kind, e.g. a Lao QR's tag 38. */
  | { kind: 'other'; tag: string; aid: string | null };

/** A parsed Thai QR. */
export interface ThaiQr {
  /** Tag 01: `11` static (reusable, payer types the amount), `12` dynamic (one payment). */
  pointOfInitiation: 'static' | 'dynamic';
  /** Tag 54 in satang, or null when the QR carries no amount. */
  amountSatang: number | null;
  /** Tag 53, ISO 4217 numeric (`764` THB). */
  currency: string;
  /** Tag 58, ISO 3166 alpha-2 (`TH`). */
  country: string;
  merchant: ThaiQrMerchant;
  merchantName: string | null;
  merchantCity: string | null;
  /** Tag 62 sub-tag 07 (terminal label). */
  terminalRef: string | null;
  /** Every sub-field of tag 62 (additional data), in order; empty when there is no tag 62. */
  additionalData: TlvField[];
  /** Whether tag 63 matches the CRC of everything before it (including `6304`); hex case ignored. */
  crcValid: boolean;
  /** Every top-level field, in order. */
  fields: TlvField[];
}

const MAX_SATANG = 999_999_999_999;

/** Integer satang as an EMVCo amount with exactly two decimals: 1 -> `0.01`, 100000 -> `1000.00`. */
function formatSatang(satang: number): string {
  if (!Number.isSafeInteger(satang)) throw invalid(`amountSatang must be an integer, got ${satang}`);
  if (satang < 1 || satang > MAX_SATANG) throw invalid(`amountSatang must be 1 to ${MAX_SATANG}, got ${satang}`);
  const cents = satang % 100;
  const whole = (satang - cents) / 100;
  return `${whole}.${String(cents).padStart(2, '0')}`;
}

/** An EMVCo amount (`1000`, `1000.5`, `1000.50`) as integer satang, by string arithmetic. */
function parseSatang(text: string): number {
  const match = /^(\d{1,13})(?:\.(\d{0,2}))?$/.exec(text);
  if (!match || text.length > 13) throw malformed(`tag 54 is not an amount: "${text}"`);
  const whole = match[1] ?? '0';
  const cents = (match[2] ?? '').padEnd(2, '0');
  const satang = Number(`${whole}${cents}`);
  if (!Number.isSafeInteger(satang)) throw malformed(`tag 54 amount out of range: "${text}"`);
  return satang;
}

function printable(name: string, value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (!PRINTABLE_ASCII.test(value) || value.length > max) {
    throw invalid(`${name} must be 1-${max} printable ASCII characters`);
  }
  return value;
}

/** A PromptPay target as its tag-29 sub-field. */
function promptpayProxy(target: string): string {
  if (/^0\d{9}$/.test(target)) return tlv('01', `0066${target.slice(1)}`);
  if (/^\+66\d{9}$/.test(target)) return tlv('01', `0066${target.slice(3)}`);
  if (/^66\d{9}$/.test(target)) return tlv('01', `00${target}`);
  if (/^0066\d{9}$/.test(target)) return tlv('01', target);
  if (/^\d{13}$/.test(target)) return tlv('02', target);
  if (/^\d{15}$/.test(target)) return tlv('03', target);
  throw invalid('promptpay target must be a Thai mobile number, a 13-digit id or a 15-digit e-wallet id');
}

function merchantField(merchant: ThaiQrMerchantInput): string {
  if (merchant.kind === 'promptpay') return tlv('29', tlv('00', PROMPTPAY_AID) + promptpayProxy(merchant.target));
  if (!/^\d{13}(\d{2})?$/.test(merchant.billerId)) throw invalid('billerId must be 15 digits (tax id + suffix) or 13 digits');
  if (!REF.test(merchant.ref1)) throw invalid('ref1 must be 1-20 characters of A-Z and 0-9');
  if (merchant.ref2 !== undefined && !REF.test(merchant.ref2)) throw invalid('ref2 must be 1-20 characters of A-Z and 0-9');
  const ref2 = merchant.ref2 === undefined ? '' : tlv('03', merchant.ref2);
  return tlv('30', tlv('00', BILL_PAYMENT_AID) + tlv('01', merchant.billerId) + tlv('02', merchant.ref1) + ref2);
}

/**
 * Builds a Thai QR (EMVCo merchant-presented) payload: a PromptPay credit transfer (tag 29) or a
 * bill payment (tag 30), tags in ascending order, CRC tag 63 last. Throws `EmvcoError`
 * (`INVALID_INPUT`) on anything it cannot encode faithfully.
 */
export function buildThaiQr(input: ThaiQrInput): string {
  const country = input.country ?? (input.currency === '418' ? 'LA' : 'TH');
  const currency = input.currency ?? (country === 'LA' ? '418' : '764');
  if (country !== 'TH' && country !== 'LA') throw invalid(`country must be TH or LA, got "${String(country)}"`);
  if (currency !== '764' && currency !== '418') throw invalid(`currency must be 764 or 418, got "${String(currency)}"`);
  if ((country === 'TH') !== (currency === '764')) throw invalid(`currency ${currency} does not belong to country ${country}`);
  const merchantName = printable('merchantName', input.merchantName, 25);
  const merchantCity = printable('merchantCity', input.merchantCity, 15);
  const terminalRef = printable('terminalRef', input.terminalRef, 25);
  const amount = input.amountSatang === undefined ? undefined : formatSatang(input.amountSatang);

  const fields: string[] = [
    tlv('00', '01'),
    tlv('01', amount === undefined ? '11' : '12'),
    merchantField(input.merchant),
    tlv('53', currency),
  ];
  if (amount !== undefined) fields.push(tlv('54', amount));
  fields.push(tlv('58', country));
  if (merchantName !== undefined) fields.push(tlv('59', merchantName));
  if (merchantCity !== undefined) fields.push(tlv('60', merchantCity));
  if (terminalRef !== undefined) fields.push(tlv('62', tlv('07', terminalRef)));
  return withCrc(fields.join(''), '63');
}

function readMerchant(fields: readonly TlvField[]): ThaiQrMerchant {
  const accounts = fields
    .filter((f) => Number(f.tag) >= 26 && Number(f.tag) <= 51)
    .map((field) => {
      const subs = subFields(field);
      assertNoDuplicates(subs, malformed);
      return { field, subs, aid: valueOf(subs, '00') };
    });
  for (const { field, subs, aid } of accounts) {
    if (field.tag === '30' && aid === BILL_PAYMENT_AID) {
      const billerId = valueOf(subs, '01');
      const ref1 = valueOf(subs, '02');
      if (billerId === null || ref1 === null) throw malformed('bill payment (tag 30) without biller id or ref1');
      return { kind: 'billPayment', billerId, ref1, ref2: valueOf(subs, '03') };
    }
    if (field.tag === '29' && aid === PROMPTPAY_AID) {
      const proxies = subs.filter((s): s is TlvField & { tag: keyof typeof PROXY_BY_SUBTAG } => Object.hasOwn(PROXY_BY_SUBTAG, s.tag));
      const [only] = proxies;
      if (only === undefined || proxies.length > 1) throw malformed('credit transfer (tag 29) must name exactly one PromptPay id');
      return { kind: 'promptpay', proxy: PROXY_BY_SUBTAG[only.tag], target: only.value };
    }
  }
  const [other] = accounts;
  if (other === undefined) throw malformed('no merchant account information (tags 26-51)');
  return { kind: 'other', tag: other.field.tag, aid: other.aid };
}

/**
 * Reads a Thai QR payload. A CRC mismatch is reported in `crcValid`, not thrown; structural faults
 * throw `EmvcoError`: `MALFORMED` (bad TLV, missing currency or country, bad amount, CRC tag not
 * last) or `NOT_MERCHANT_QR` (TLV that does not start with `000201` or has no tag 63).
 */
export function parseThaiQr(payload: string): ThaiQr {
  const fields = parseTlv(payload);
  const first = fields[0];
  const last = fields[fields.length - 1];
  if (first?.tag !== '00' || first.value !== '01') throw new EmvcoError('NOT_MERCHANT_QR', 'payload does not start with 000201');
  if (!fields.some((f) => f.tag === '63')) throw new EmvcoError('NOT_MERCHANT_QR', 'payload has no CRC tag 63');
  if (last?.tag !== '63') throw malformed('CRC tag 63 is not the last field');
  if (last.value.length !== 4 || !HEX.test(last.value)) throw malformed('CRC tag 63 must be 4 hex digits');
  assertNoDuplicates(fields, malformed);

  const initiation = valueOf(fields, '01');
  if (initiation !== null && initiation !== '11' && initiation !== '12') throw malformed(`tag 01 must be 11 or 12, got "${initiation}"`);
  const currency = valueOf(fields, '53');
  if (currency === null || !/^\d{3}$/.test(currency)) throw malformed('tag 53 (currency) missing or not 3 digits');
  const country = valueOf(fields, '58');
  if (country === null || !/^[A-Z]{2}$/.test(country)) throw malformed('tag 58 (country) missing or not 2 letters');
  const amount = valueOf(fields, '54');
  const additional = fields.find((f) => f.tag === '62');
  const additionalData = additional === undefined ? [] : subFields(additional);

  const covered = payload.slice(0, payload.length - 4);
  return {
    pointOfInitiation: initiation === '12' ? 'dynamic' : 'static',
    amountSatang: amount === null ? null : parseSatang(amount),
    currency,
    country,
    merchant: readMerchant(fields),
    merchantName: valueOf(fields, '59'),
    merchantCity: valueOf(fields, '60'),
    terminalRef: valueOf(additionalData, '07'),
    additionalData,
    crcValid: crc16ccitt(covered) === last.value.toUpperCase(),
    fields,
  };
}

// ---------------------------------------------------------------------------------------------
// Slip verify mini-QR

/** The 3-digit bank numbers in slip payloads, mapped to our bank codes. */
export const SLIP_BANK_CODES = Object.freeze({
  '002': 'BBL',
  '004': 'KBANK',
  '006': 'KTB',
  '011': 'TMB',
  '014': 'SCB',
  '022': 'CIMB',
  '024': 'UOB',
  '025': 'BAY',
  '030': 'GSB',
  '034': 'BAAC',
  '069': 'KKP',
} as const);
/** A 3-digit bank number that `SLIP_BANK_CODES` knows. */
export type SlipBankNumber = keyof typeof SLIP_BANK_CODES;
/** One of our bank codes that has a slip bank number. */
export type SlipBank = (typeof SLIP_BANK_CODES)[SlipBankNumber];
/** The reverse of `SLIP_BANK_CODES`: our bank code to its 3-digit slip number. */
export const BANK_SLIP_CODES: Readonly<Record<SlipBank, SlipBankNumber>> = Object.freeze(
  Object.fromEntries(Object.entries(SLIP_BANK_CODES).map(([number, bank]) => [bank, number])) as Record<SlipBank, SlipBankNumber>,
);

/** What a slip's mini-QR says: the sending bank's 3-digit number and the bank's transaction reference. */
export interface SlipPayload {
  sendingBank: string;
  transRef: string;
}

const SLIP_API_TYPE = '000001';

/**
 * Builds the slip-verify payload a Thai bank app prints on a transfer slip: tag 00 {00 API type
 * `000001`, 01 bank, 02 transRef}, tag 51 `TH`, tag 91 CRC. Throws `EmvcoError` (`INVALID_INPUT`).
 */
export function buildSlipPayload({ sendingBank, transRef }: SlipPayload): string {
  if (!/^\d{3}$/.test(sendingBank)) throw invalid('sendingBank must be 3 digits');
  if (!/^[A-Za-z0-9]+$/.test(transRef)) throw invalid('transRef must be letters and digits');
  const body = tlv('00', tlv('00', SLIP_API_TYPE) + tlv('01', sendingBank) + tlv('02', transRef)) + tlv('51', 'TH');
  return withCrc(body, '91');
}

/**
 * Reads a slip-verify payload. Throws `EmvcoError` with reason `MALFORMED` (not TLV), `NOT_SLIP`
 * (TLV, but not this layout) or `BAD_CRC`. A CRC printed without its leading zeros (some bank apps
 * do) is accepted: the CRC is compared as a number, over everything up to and including `9104`.
 */
export function parseSlipPayload(text: string): SlipPayload {
  const notSlip = (message: string) => new EmvcoError('NOT_SLIP', message);
  const fields = walkTlv(text, '91');
  assertNoDuplicates(fields, notSlip);
  const crcField = fields[fields.length - 1];
  const root = fields.find((f) => f.tag === '00');
  if (crcField?.tag !== '91') throw notSlip('no CRC tag 91 at the end');
  if (!text.endsWith(`9104${crcField.value}`) || !HEX.test(crcField.value)) throw notSlip('tag 91 must be a 4-hex-digit CRC');
  if (root === undefined) throw notSlip('no tag 00');
  if (valueOf(fields, '51') !== 'TH') throw notSlip('tag 51 is not TH');

  let subs: TlvField[];
  try {
    subs = parseTlv(root.value);
  } catch {
    throw notSlip('tag 00 is not a TLV template');
  }
  assertNoDuplicates(subs, notSlip);
  if (valueOf(subs, '00') !== SLIP_API_TYPE) throw notSlip(`API type is not ${SLIP_API_TYPE}`);
  const sendingBank = valueOf(subs, '01');
  const transRef = valueOf(subs, '02');
  if (sendingBank === null || !/^\d{3}$/.test(sendingBank)) throw notSlip('sending bank missing or not 3 digits');
  if (transRef === null || transRef.length === 0) throw notSlip('transRef missing');
  // A bank issues letters and digits, 6 to 40 (as the bank feed says): nothing else is a reference.
  if (!/^[A-Za-z0-9]{6,40}$/.test(transRef)) throw notSlip('transRef is not 6-40 letters and digits');

  const covered = text.slice(0, text.length - crcField.value.length);
  if (parseInt(crcField.value, 16) !== parseInt(crc16ccitt(covered), 16)) throw new EmvcoError('BAD_CRC', 'slip CRC does not match');
  return { sendingBank, transRef };
}
