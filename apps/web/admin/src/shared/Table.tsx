import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** The server's sort key for this column (a header button toggles asc / desc). */
  sort?: string;
  numeric?: boolean;
}

interface Props<T> {
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  /** `key` or `-key`. */
  sort?: string;
  onSort?: (sort: string) => void;
  page?: number;
  pageSize?: number;
  total?: number;
  onPage?: (page: number) => void;
}

/** A table whose paging and sorting happen on the server: it shows one page and asks for another. */
export function DataTable<T>({ caption, columns, rows, rowKey, loading, sort, onSort, page = 1, pageSize = 25, total, onPage }: Props<T>) {
  const { t } = useTranslation();
  const pages = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="table" aria-busy={loading ? 'true' : 'false'}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort === c.sort || sort === `-${c.sort}`;
              const desc = sort === `-${c.sort}`;
              return (
                <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={active ? (desc ? 'descending' : 'ascending') : undefined}>
                  {c.sort && onSort ? (
                    <button type="button" className="sort" onClick={() => onSort(active && !desc ? `-${c.sort}` : (c.sort as string))}>
                      {c.label}
                      <span aria-hidden="true">{active ? (desc ? ' ▼' : ' ▲') : ' ↕'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows && rows.length > 0 ? (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key} className={c.numeric ? 'num' : undefined}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={columns.length} className="empty">
                {loading ? t('common.loading') : t('common.none')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {onPage && total !== undefined ? (
        <nav className="pager" aria-label={caption}>
          <span>{t('common.total', { count: total })}</span>
          <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('common.prev')}
          </button>
          <span>{t('common.page', { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t('common.next')}
          </button>
        </nav>
      ) : null}
    </div>
  );
}
