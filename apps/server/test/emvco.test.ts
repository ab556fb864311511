import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import {
  BANK_SLIP_CODES,
  buildSlipPayload,
  buildThaiQr,
  crc16ccitt,
  EmvcoError,
  type EmvcoErrorReason,
  parseSlipPayload,
  parseThaiQr,
  parseTlv,
  SLIP_BANK_CODES,
  type ThaiQrInput,
  tlv,
} from '../src/lib/emvco';
import { qrMatrix, qrSvg } from '../src/lib/qr-svg';

// ------------------------------------------------------------------------------------------------
// Independent helpers: written without the module under test, and without regular expressions.

type Field = [tag: string, value: string];

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** A deliberately plain TLV walk, so the tests do not only trust our own parser. */
function simpleTlv(text: string): Field[] {
  const out: Field[] = [];
  let i = 0;
  while (i < text.length) {
    const header = text.slice(i, i + 4);
    if (header.length !== 4 || ![...header].every((c) => isDigit(c))) throw new Error(`bad header at ${i}`);
    const length = Number(header.slice(2));
    const value = text.slice(i + 4, i + 4 + length);
    if (value.length !== length) throw new Error(`truncated at ${i}`);
    out.push([header.slice(0, 2), value]);
    i += 4 + length;
  }
  return out;
}

const tagsOf = (fields: Field[]) => fields.map(([tag]) => tag);
const valueIn = (fields: Field[], tag: string) => fields.find(([t]) => t === tag)?.[1];

function reasonOf(action: () => unknown): EmvcoErrorReason | 'NO_ERROR' | 'OTHER_ERROR' {
  try {
    action();
    return 'NO_ERROR';
  } catch (error) {
    return error instanceof EmvcoError ? error.reason : 'OTHER_ERROR';
  }
}

/** RGBA bitmap of a set of dark cells on a white square of `side` modules, `scale` pixels each. */
function raster(side: number, scale: number, dark: (x: number, y: number) => boolean) {
  const width = side * scale;
  const data = new Uint8ClampedArray(width * width * 4);
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      const level = dark(Math.floor(px / scale), Math.floor(py / scale)) ? 0 : 255;
      const at = (py * width + px) * 4;
      data[at] = level;
      data[at + 1] = level;
      data[at + 2] = level;
      data[at + 3] = 255;
    }
  }
  return { data, width };
}

function decodeMatrix(matrix: boolean[][], margin = 4, scale = 4): string | undefined {
  const side = matrix.length + 2 * margin;
  const { data, width } = raster(side, scale, (x, y) => matrix[y - margin]?.[x - margin] === true);
  return jsQR(data, width, width)?.data;
}

/** Reads back the squares our SVG path draws: every segment must be `M x y h n v1 h-n z`. */
function svgCells(svg: string): { side: number; cells: Set<string> } {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const d = /<path fill="#000" d="([^"]*)"\/>/.exec(svg)?.[1];
  if (!viewBox || d === undefined) throw new Error('no viewBox or path');
  const cells = new Set<string>();
  let consumed = '';
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    consumed += m[0];
    const [x, y, h, back] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    expect(back).toBe(h);
    for (let i = 0; i < h; i++) cells.add(`${x + i},${y}`);
  }
  expect(consumed).toBe(d);
  return { side: Number(viewBox[1]), cells };
}

function decodeSvg(svg: string, scale = 4): string | undefined {
  const { side, cells } = svgCells(svg);
  const { data, width } = raster(side, scale, (x, y) => cells.has(`${x},${y}`));
  return jsQR(data, width, width)?.data;
}

// ------------------------------------------------------------------------------------------------

describe('crc16ccitt', () => {
  it('matches the CRC-16/CCITT-FALSE check values', () => {
    expect(crc16ccitt('123456789')).toBe('29B1');
    expect(crc16ccitt('A')).toBe('B915');
    expect(crc16ccitt('')).toBe('FFFF');
  });

  it('always gives 4 upper-case hex digits', () => {
    for (let i = 0; i < 300; i++) {
      const crc = crc16ccitt(`x${i}`);
      expect(crc).toHaveLength(4);
      expect(crc).toBe(crc.toUpperCase());
    }
  });
});

describe('TLV helpers', () => {
  it('writes the length as 2 decimal digits', () => {
    expect(tlv('00', '01')).toBe('000201');
    expect(tlv('62', 'x'.repeat(12))).toBe(`6212${'x'.repeat(12)}`);
    expect(tlv('59', 'y'.repeat(99))).toBe(`5999${'y'.repeat(99)}`);
  });

  it('refuses values it cannot encode and bad tags', () => {
    expect(reasonOf(() => tlv('59', 'y'.repeat(100)))).toBe('INVALID_INPUT');
    expect(reasonOf(() => tlv('59', ''))).toBe('INVALID_INPUT');
    expect(reasonOf(() => tlv('5', 'a'))).toBe('INVALID_INPUT');
    expect(reasonOf(() => tlv('A1', 'a'))).toBe('INVALID_INPUT');
  });

  it('parses fields in order and refuses malformed text', () => {
    expect(parseTlv('000411110104222202043333')).toEqual([
      { tag: '00', value: '1111' },
      { tag: '01', value: '2222' },
      { tag: '02', value: '3333' },
    ]);
    expect(parseTlv('')).toEqual([]);
    expect(reasonOf(() => parseTlv('0005abc'))).toBe('MALFORMED'); // truncated value
    expect(reasonOf(() => parseTlv('00020'))).toBe('MALFORMED'); // truncated header
    expect(reasonOf(() => parseTlv('00A1x'))).toBe('MALFORMED'); // bad length
    expect(reasonOf(() => parseTlv('X002ab'))).toBe('MALFORMED'); // bad tag
  });
});

describe('Thai QR', () => {
  const bill: ThaiQrInput = {
    merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'ORDER00042', ref2: 'M7' },
    amountSatang: 123_45,
    merchantName: 'GOLDEN WALLET',
    merchantCity: 'BANGKOK',
    terminalRef: 'DEP42',
  };

  it('builds a bill payment with tags in ascending order and a valid CRC', () => {
    const payload = buildThaiQr(bill);
    const fields = simpleTlv(payload);
    expect(tagsOf(fields)).toEqual(['00', '01', '30', '53', '54', '58', '59', '60', '62', '63']);
    expect(valueIn(fields, '00')).toBe('01');
    expect(valueIn(fields, '01')).toBe('12');
    expect(simpleTlv(valueIn(fields, '30') ?? '')).toEqual([
      ['00', 'A000000677010112'],
      ['01', '010555512345601'],
      ['02', 'ORDER00042'],
      ['03', 'M7'],
    ]);
    expect(valueIn(fields, '53')).toBe('764');
    expect(valueIn(fields, '54')).toBe('123.45');
    expect(valueIn(fields, '58')).toBe('TH');
    expect(valueIn(fields, '59')).toBe('GOLDEN WALLET');
    expect(valueIn(fields, '60')).toBe('BANGKOK');
    expect(simpleTlv(valueIn(fields, '62') ?? '')).toEqual([['07', 'DEP42']]);
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(valueIn(fields, '63')).toBe(crc16ccitt(payload.slice(0, -4)));
  });

  it('round-trips a bill payment', () => {
    const parsed = parseThaiQr(buildThaiQr(bill));
    expect(parsed).toMatchObject({
      pointOfInitiation: 'dynamic',
      amountSatang: 12345,
      currency: '764',
      country: 'TH',
      merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'ORDER00042', ref2: 'M7' },
      merchantName: 'GOLDEN WALLET',
      merchantCity: 'BANGKOK',
      terminalRef: 'DEP42',
      additionalData: [{ tag: '07', value: 'DEP42' }],
      crcValid: true,
    });
    const noRef2 = parseThaiQr(buildThaiQr({ merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'A1' } }));
    expect(noRef2.merchant).toEqual({ kind: 'billPayment', billerId: '010555512345601', ref1: 'A1', ref2: null });
    expect(noRef2.pointOfInitiation).toBe('static');
    expect(noRef2.amountSatang).toBeNull();
    expect(noRef2.terminalRef).toBeNull();
    expect(noRef2.merchantName).toBeNull();
  });

  it('round-trips PromptPay targets, writing phones as 0066 + 9 digits', () => {
    const cases: Array<[target: string, proxy: string, carried: string, sub: string]> = [
      ['0812345678', 'phone', '0066812345678', '01'],
      ['+66812345678', 'phone', '0066812345678', '01'],
      ['66812345678', 'phone', '0066812345678', '01'],
      ['0066812345678', 'phone', '0066812345678', '01'],
      ['1101700203451', 'nationalId', '1101700203451', '02'],
      ['140000801111111', 'eWallet', '140000801111111', '03'],
    ];
    for (const [target, proxy, carried, sub] of cases) {
      const payload = buildThaiQr({ merchant: { kind: 'promptpay', target }, amountSatang: 50_00 });
      const tag29 = simpleTlv(valueIn(simpleTlv(payload), '29') ?? '');
      expect(tag29).toEqual([
        ['00', 'A000000677010111'],
        [sub, carried],
      ]);
      const parsed = parseThaiQr(payload);
      expect(parsed.merchant).toEqual({ kind: 'promptpay', proxy, target: carried });
      expect(parsed.amountSatang).toBe(5000);
      expect(parsed.crcValid).toBe(true);
    }
    for (const target of ['081234567', '08123456789', '1234', '+1812345678', '081-234-5678', '']) {
      expect(reasonOf(() => buildThaiQr({ merchant: { kind: 'promptpay', target } }))).toBe('INVALID_INPUT');
    }
  });

  it('formats amounts from integer satang with exactly two decimals', () => {
    const amountOf = (amountSatang: number) =>
      valueIn(simpleTlv(buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' }, amountSatang })), '54');
    expect(amountOf(1)).toBe('0.01');
    expect(amountOf(10)).toBe('0.10');
    expect(amountOf(100)).toBe('1.00');
    expect(amountOf(100_000)).toBe('1000.00');
    expect(amountOf(999_999_999_999)).toBe('9999999999.99');
    for (const bad of [0, -1, -100, 1.5, 0.1, 1_000_000_000_000, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(reasonOf(() => amountOf(bad)), String(bad)).toBe('INVALID_INPUT');
    }
  });

  it('refuses inputs a bank app would not read back faithfully', () => {
    const pp = { kind: 'promptpay', target: '0812345678' } as const;
    expect(reasonOf(() => buildThaiQr({ merchant: { kind: 'billPayment', billerId: '123', ref1: 'A' } }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildThaiQr({ merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'lower' } }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildThaiQr({ merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'A'.repeat(21) } }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildThaiQr({ merchant: pp, merchantName: 'x'.repeat(26) }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildThaiQr({ merchant: pp, merchantCity: 'กรุงเทพ' }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildThaiQr({ merchant: pp, currency: '418', country: 'TH' }))).toBe('INVALID_INPUT');
    const lao = simpleTlv(buildThaiQr({ merchant: pp, country: 'LA' }));
    expect([valueIn(lao, '53'), valueIn(lao, '58')]).toEqual(['418', 'LA']);
  });

  it('detects tampering through the CRC and accepts a lower-case CRC', () => {
    const payload = buildThaiQr(bill);
    const tampered = payload.replace('ORDER00042', 'ORDER00043');
    expect(tampered).not.toBe(payload);
    expect(parseThaiQr(tampered).crcValid).toBe(false);
    const amountChanged = payload.replace('123.45', '923.45');
    expect(parseThaiQr(amountChanged).crcValid).toBe(false);
    const crc = payload.slice(-4);
    expect(parseThaiQr(payload.slice(0, -4) + crc.toLowerCase()).crcValid).toBe(true);
    const otherCrc = ((parseInt(crc, 16) + 1) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    expect(parseThaiQr(payload.slice(0, -4) + otherCrc).crcValid).toBe(false);
  });

  it('throws on bad structure', () => {
    const payload = buildThaiQr(bill);
    expect(reasonOf(() => parseThaiQr(payload.slice(0, -2)))).toBe('MALFORMED');
    expect(reasonOf(() => parseThaiQr('hello'))).toBe('MALFORMED');
    expect(reasonOf(() => parseThaiQr(buildSlipPayload({ sendingBank: '014', transRef: 'ABC' })))).toBe('NOT_MERCHANT_QR');
    const body = tlv('00', '01') + tlv('01', '11') + tlv('29', tlv('00', 'A000000677010111') + tlv('01', '0066812345678'));
    const withCrc = (text: string) => `${text}6304${crc16ccitt(`${text}6304`)}`;
    expect(reasonOf(() => parseThaiQr(withCrc(body + tlv('58', 'TH'))))).toBe('MALFORMED'); // no currency
    expect(reasonOf(() => parseThaiQr(withCrc(body + tlv('53', '764'))))).toBe('MALFORMED'); // no country
    expect(reasonOf(() => parseThaiQr(withCrc(body + tlv('53', '764') + tlv('54', '1,00') + tlv('58', 'TH'))))).toBe('MALFORMED');
    expect(reasonOf(() => parseThaiQr(body + tlv('53', '764') + tlv('58', 'TH')))).toBe('NOT_MERCHANT_QR'); // no CRC
    expect(reasonOf(() => parseThaiQr(withCrc(body + tlv('53', '764') + tlv('58', 'TH')) + tlv('99', 'x')))).toBe('MALFORMED');
    expect(parseThaiQr(withCrc(body + tlv('53', '764') + tlv('58', 'TH'))).crcValid).toBe(true);
  });

  // Payloads produced by another implementation (the promptparse test suite), so our CRC, TLV and
  // layout are checked against output we did not write.
  it('produces byte-identical payloads to an independent implementation', () => {
    expect(buildThaiQr({ merchant: { kind: 'promptpay', target: '0812223333' } })).toBe(
      '00020101021129370016A0000006770101110113006681222333353037645802TH63041DCF',
    );
    expect(buildThaiQr({ merchant: { kind: 'promptpay', target: '140000801111111' } })).toBe(
      '00020101021129390016A000000677010111031514000080111111153037645802TH63047C0F',
    );
    expect(
      buildThaiQr({
        merchant: { kind: 'billPayment', billerId: '0112233445566', ref1: 'CUSTOMER001', ref2: 'INV001' },
        terminalRef: 'SCB',
      }),
    ).toBe('00020101021130620016A000000677010112011301122334455660211CUSTOMER0010306INV00153037645802TH62070703SCB6304780E');
  });

  it('reads payloads from an independent implementation (tag 54 after 58)', () => {
    const transfer = parseThaiQr('00020101021229370016A0000006770101110113006680111111153037645802TH540520.15630442BE');
    expect(transfer).toMatchObject({
      pointOfInitiation: 'dynamic',
      amountSatang: 2015,
      merchant: { kind: 'promptpay', proxy: 'phone', target: '0066801111111' },
      crcValid: true,
    });
    expect(parseThaiQr('00020101021229370016A0000006770101110113006680111111153037645802TH540520.156304FFFF').crcValid).toBe(false);
    expect(
      parseThaiQr(
        '00020101021230650016A00000067701011201150994000165501000212123456789012030667042953037645802TH54073649.2263044534',
      ),
    ).toMatchObject({
      amountSatang: 364922,
      merchant: { kind: 'billPayment', billerId: '099400016550100', ref1: '123456789012', ref2: '670429' },
      crcValid: true,
    });
    expect(parseThaiQr('00020101021229370016A0000006770101110113006681222333353037645802TH540530.0063043CAD')).toMatchObject({
      amountSatang: 3000,
      crcValid: true,
    });
  });
});

describe('slip verify payload', () => {
  const example = '004100060000010103014022000111222233344ABCD125102TH910417DF';

  it('reads the research example: SCB, its transRef, and a CRC that checks out', () => {
    expect(crc16ccitt(example.slice(0, -4))).toBe('17DF');
    expect(parseSlipPayload(example)).toEqual({ sendingBank: '014', transRef: '00111222233344ABCD12' });
    expect(SLIP_BANK_CODES['014']).toBe('SCB');
    const fields = simpleTlv(example);
    expect(tagsOf(fields)).toEqual(['00', '51', '91']);
    expect(simpleTlv(valueIn(fields, '00') ?? '')).toEqual([
      ['00', '000001'],
      ['01', '014'],
      ['02', '00111222233344ABCD12'],
    ]);
  });

  it('builds what it parses, byte-identical to the example and to an independent implementation', () => {
    expect(buildSlipPayload({ sendingBank: '014', transRef: '00111222233344ABCD12' })).toBe(example);
    expect(buildSlipPayload({ sendingBank: '002', transRef: '0002123123121200011' })).toBe(
      '004000060000010103002021900021231231212000115102TH91049C30',
    );
    const payload = buildSlipPayload({ sendingBank: '004', transRef: '2024061512345678KB' });
    expect(parseSlipPayload(payload)).toEqual({ sendingBank: '004', transRef: '2024061512345678KB' });
    expect(reasonOf(() => buildSlipPayload({ sendingBank: '14', transRef: 'X' }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildSlipPayload({ sendingBank: '014', transRef: '' }))).toBe('INVALID_INPUT');
    expect(reasonOf(() => buildSlipPayload({ sendingBank: '014', transRef: 'x'.repeat(80) }))).toBe('INVALID_INPUT');
  });

  it('accepts a CRC printed without leading zeros, and a lower-case CRC', () => {
    let payload = '';
    for (let i = 0; i < 10_000 && !payload; i++) {
      const candidate = buildSlipPayload({ sendingBank: '006', transRef: `KTB${100_000 + i}` });
      if (candidate.slice(-4).startsWith('0')) payload = candidate;
    }
    expect(payload).not.toBe('');
    const crc = payload.slice(-4);
    const short = payload.slice(0, -4) + crc.replace(/^0+/, '');
    expect(short.length).toBeLessThan(payload.length);
    expect(parseSlipPayload(short)).toEqual(parseSlipPayload(payload));
    expect(parseSlipPayload(payload.slice(0, -4) + crc.toLowerCase())).toEqual(parseSlipPayload(payload));
    // A short CRC is still checked.
    const wrongShort = payload.slice(0, -4) + ((parseInt(crc, 16) + 1) & 0xfff).toString(16);
    expect(reasonOf(() => parseSlipPayload(wrongShort))).toBe('BAD_CRC');
  });

  it('detects tampering', () => {
    expect(reasonOf(() => parseSlipPayload(example.replace('014', '004')))).toBe('BAD_CRC');
    expect(reasonOf(() => parseSlipPayload(example.replace('ABCD', 'ABCE')))).toBe('BAD_CRC');
    expect(reasonOf(() => parseSlipPayload(`${example.slice(0, -4)}17DE`))).toBe('BAD_CRC');
  });

  it('says NOT_SLIP for other payloads and MALFORMED for non-TLV', () => {
    const withCrc = (body: string) => `${body}9104${crc16ccitt(`${body}9104`)}`;
    const inner = (api: string) => tlv('00', tlv('00', api) + tlv('01', '014') + tlv('02', 'ABC123'));
    expect(reasonOf(() => parseSlipPayload(withCrc(inner('000001') + tlv('51', 'TH'))))).toBe('NO_ERROR');
    expect(reasonOf(() => parseSlipPayload(buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' } })))).toBe('NOT_SLIP');
    expect(reasonOf(() => parseSlipPayload(withCrc(inner('000002') + tlv('51', 'TH'))))).toBe('NOT_SLIP');
    expect(reasonOf(() => parseSlipPayload(withCrc(inner('000001') + tlv('51', 'LA'))))).toBe('NOT_SLIP');
    expect(reasonOf(() => parseSlipPayload(withCrc(inner('000001'))))).toBe('NOT_SLIP');
    expect(reasonOf(() => parseSlipPayload(inner('000001') + tlv('51', 'TH')))).toBe('NOT_SLIP');
    expect(reasonOf(() => parseSlipPayload('hello'))).toBe('MALFORMED');
    expect(reasonOf(() => parseSlipPayload('0041000600000101030140220001'))).toBe('MALFORMED');
    expect(reasonOf(() => parseSlipPayload(''))).toBe('NOT_SLIP');
  });

  it('maps slip bank numbers to our bank codes both ways', () => {
    expect(Object.keys(SLIP_BANK_CODES).sort()).toEqual(['002', '004', '006', '011', '014', '022', '024', '025', '030', '034', '069']);
    expect(SLIP_BANK_CODES['004']).toBe('KBANK');
    expect(SLIP_BANK_CODES['011']).toBe('TMB');
    for (const [number, bank] of Object.entries(SLIP_BANK_CODES)) expect(BANK_SLIP_CODES[bank]).toBe(number);
    expect(Object.keys(BANK_SLIP_CODES)).toHaveLength(Object.keys(SLIP_BANK_CODES).length);
  });
});

describe('QR rendering', () => {
  const payloads = [
    buildThaiQr({
      merchant: { kind: 'billPayment', billerId: '010555512345601', ref1: 'ORDER00042', ref2: 'M7' },
      amountSatang: 150_000_00,
      merchantName: 'GOLDEN WALLET',
      terminalRef: 'DEP42',
    }),
    buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' } }),
    buildSlipPayload({ sendingBank: '014', transRef: '00111222233344ABCD12' }),
  ];

  it('decodes the module matrix back to the payload', () => {
    for (const payload of payloads) {
      const matrix = qrMatrix(payload);
      expect(matrix.length).toBeGreaterThanOrEqual(21);
      expect(matrix.every((row) => row.length === matrix.length)).toBe(true);
      expect(decodeMatrix(matrix)).toBe(payload);
    }
  });

  it('uses error correction level M, read from the format information of the symbol', () => {
    // Format information: 15 bits XOR 0x5412; its two top bits are the level (L 01, M 00, Q 11,
    // H 10). Bit 14 sits at row 8 column 0 and at column 8 of the last row, bit 13 beside each.
    for (const payload of payloads) {
      const m = qrMatrix(payload);
      const n = m.length;
      const level = (b14: boolean | undefined, b13: boolean | undefined) => `${Number(b14) ^ 1}${Number(b13)}`;
      expect(level(m[8]?.[0], m[8]?.[1])).toBe('00');
      expect(level(m[n - 1]?.[8], m[n - 2]?.[8])).toBe('00');
    }
  });

  it('decodes a bitmap rasterised from the SVG path back to the payload', () => {
    for (const payload of payloads) {
      const svg = qrSvg(payload);
      expect(decodeSvg(svg)).toBe(payload);
      expect(decodeSvg(qrSvg(payload, { margin: 6, moduleSize: 2 }))).toBe(payload);
    }
  });

  it('draws exactly the matrix, inside a quiet zone of at least 4 modules', () => {
    const payload = payloads[0] ?? '';
    const matrix = qrMatrix(payload);
    const { side, cells } = svgCells(qrSvg(payload));
    expect(side).toBe(matrix.length + 8);
    const expected = new Set<string>();
    matrix.forEach((row, y) => row.forEach((dark, x) => dark && expected.add(`${x + 4},${y + 4}`)));
    expect([...cells].sort()).toEqual([...expected].sort());
  });

  it('writes minimal, static, deterministic markup', () => {
    const payload = payloads[1] ?? '';
    const svg = qrSvg(payload, { moduleSize: 5 });
    const side = qrMatrix(payload).length + 8;
    expect(svg).toBe(qrSvg(payload, { moduleSize: 5 }));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ')).toBe(true);
    expect(svg).toContain(`width="${side * 5}" height="${side * 5}" viewBox="0 0 ${side} ${side}"`);
    expect(svg).toContain('shape-rendering="crispEdges"');
    expect(svg).toContain(`<rect width="${side}" height="${side}" fill="#fff"/>`);
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(svg.match(/<[a-z]+/g)).toEqual(['<svg', '<rect', '<path']);
    for (const banned of ['script', 'href', 'url(', 'style', 'foreignobject', '<!', '<?']) {
      expect(svg.toLowerCase().includes(banned), banned).toBe(false);
    }
    expect(/\son[a-z]+=/i.test(svg)).toBe(false);
  });

  it('refuses a quiet zone under 4 modules and bad sizes', () => {
    expect(() => qrSvg('x', { margin: 3 })).toThrow(RangeError);
    expect(() => qrSvg('x', { moduleSize: 0 })).toThrow(RangeError);
    expect(() => qrSvg('x', { moduleSize: 1.5 })).toThrow(RangeError);
    expect(() => qrMatrix('')).toThrow(RangeError);
  });
});
