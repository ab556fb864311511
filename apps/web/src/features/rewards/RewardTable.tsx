import type { ReactNode } from 'react';
import { Pagination } from '../../shared/ui/Pagination';
import { REWARD_PAGE_SIZE } from './rewardsApi';

interface Column<Row> {
  title: string;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** A paged table of the invite or refund log: 10 rows a page, the pagination window 3 before and 1 after. */
export function RewardTable<Row>({ rows, total, page, onPage, columns, empty, loading, testId }: {
  rows: readonly Row[];
  total: number;
  page: number;
  onPage: (page: number) => void;
  columns: ReadonlyArray<Column<Row>>;
  empty: string;
  loading: boolean;
  testId: string;
}) {
  if (rows.length === 0) return loading ? <div className="reward-table-skeleton" aria-hidden="true" /> : <p className="muted reward-empty">{empty}</p>;
  return (
    <>
      <table className="reward-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.title} className={c.numeric ? 'num' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={page} total={total} pageSize={REWARD_PAGE_SIZE} onChange={onPage} testId={`${testId}-pagination`} />
    </>
  );
}
