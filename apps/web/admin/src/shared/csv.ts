/** A CSV file (RFC 4180, UTF-8 with a byte-order mark so spreadsheet programs read Thai) downloaded by the browser. */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[]): string {
  const cell = (value: unknown): string => {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    // A leading =, +, -, @, tab or CR would be a formula in a spreadsheet (a plain negative number stays a number).
    const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
    // Quoted when it holds a separator of any locale's spreadsheet (`,` or `;`), a quote, a tab or a line break.
    return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c])).join(','))].join('\r\n');
}

export function downloadCsv(name: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Every row of a paged list, page by page (at most `maxRows`), for an export. */
export async function allPages<T>(fetchPage: (page: number, pageSize: number) => Promise<{ total: number; rows: T[] }>, maxRows = 10_000): Promise<T[]> {
  const pageSize = 200;
  const out: T[] = [];
  for (let page = 1; out.length < maxRows; page += 1) {
    const { total, rows } = await fetchPage(page, pageSize);
    out.push(...rows);
    if (rows.length < pageSize || out.length >= total) break;
  }
  return out.slice(0, maxRows);
}
