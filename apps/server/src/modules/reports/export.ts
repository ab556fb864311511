import type { ReportAnswer, ReportColumn } from '@mw/contract/operator/reports';
import { rangeOf, type ReportTable } from './report-service';
import { xlsx, type XlsxCell } from './xlsx';

/** Minor units as the decimal text of major units, exactly (no float on the way): -12345 → "-123.45". */
export function majorText(minor: number): string {
  const abs = Math.abs(minor);
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A figure as the JSON answer carries it: amounts in major units (a number to the satang), the rest as they are. */
function wireValue(column: ReportColumn, value: number | string | undefined): number | string {
  if (column.kind === 'text') return typeof value === 'string' ? value : '';
  const n = typeof value === 'number' ? value : 0;
  return column.kind === 'amount' ? Number(majorText(n)) : n;
}

/** Sets a dotted key (`channels.bank`, `providers.PG.ggr`) in a nested object. */
function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = (at[part] as Record<string, unknown> | undefined) ?? {};
    at[part] = next;
    at = next;
  }
  at[parts[parts.length - 1] as string] = value;
}

function nested(columns: readonly ReportColumn[], figures: ReadonlyMap<string, number | string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) if (figures.has(c.key) || c.kind !== 'text') setPath(out, c.key, wireValue(c, figures.get(c.key)));
  return out;
}

/** The JSON answer: rows and totals with the figures as nested fields (channels, providers), in major units. */
export function answerOf(table: ReportTable): ReportAnswer {
  const { request } = table;
  return {
    report: request.name,
    ...rangeOf(request),
    granularity: request.granularity,
    currency: request.currency,
    timeZone: table.timeZone,
    tag: request.tag,
    columns: table.columns,
    rows: table.rows.map((r) => ({ ...(r.period ?? {}), ...nested(table.columns, r.figures) })),
    totals: nested(table.columns.filter((c) => c.kind !== 'text' && c.key !== 'rank'), table.totals),
  };
}

/** The table as a grid of cells: a header row, a row per period (or member), and the totals. */
function grid(table: ReportTable): XlsxCell[][] {
  const periodic = table.rows.some((r) => r.period !== null) || table.request.name !== 'top-depositors';
  const head: XlsxCell[] = [...(periodic ? ['period', 'from', 'to'] : []), ...table.columns.map((c) => c.key)];
  const cell = (c: ReportColumn, value: number | string | undefined): XlsxCell => {
    if (c.kind === 'text') return typeof value === 'string' ? value : '';
    const n = typeof value === 'number' ? value : 0;
    if (c.kind === 'amount') return { number: majorText(n) };
    return { number: c.kind === 'percent' ? n.toFixed(2) : String(n) };
  };
  const rows = table.rows.map((r) => [...(periodic ? [r.period?.period ?? '', r.period?.from ?? '', r.period?.to ?? ''] : []), ...table.columns.map((c) => cell(c, r.figures.get(c.key)))]);
  const totals: XlsxCell[] = [
    ...(periodic ? ['total', rangeOf(table.request).from, rangeOf(table.request).to] : []),
    ...table.columns.map((c, i) => (i === 0 && !periodic ? 'total' : c.kind === 'text' || c.key === 'rank' ? '' : cell(c, table.totals.get(c.key)))),
  ];
  return [head, ...rows, totals];
}

/**
 * A text cell that a spreadsheet would read as a formula (it begins with =, +, -, @, a tab or a
 * carriage return) gets a leading apostrophe (OWASP CSV injection); numbers are written as numbers.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180 with CRLF, UTF-8 with a byte-order mark; a cell with `,` `;` a quote or a line break is quoted. */
export function csvOf(table: ReportTable): Buffer {
  const text = (value: XlsxCell): string => {
    const raw = typeof value === 'string' ? neutralise(value) : value.number;
    return /[",;\t\r\n]/.test(raw) ? `"${raw.replace(/"/g, '""')}"` : raw;
  };
  const lines = grid(table).map((row) => row.map(text).join(','));
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}

/** The same grid as an Excel workbook of one sheet named after the report (text cells are text, never formulas). */
export function xlsxOf(table: ReportTable): Buffer {
  return xlsx(table.request.name, grid(table));
}

/** The download's file name: report-cash-THB-2026-01-01-2026-01-31.csv. */
export function fileNameOf(table: ReportTable, extension: 'csv' | 'xlsx'): string {
  const { from, to } = rangeOf(table.request);
  const tag = table.request.tag === null ? '' : `-${table.request.tag}`;
  return `report-${table.request.name}-${table.request.currency}${tag}-${from}-${to}.${extension}`;
}
