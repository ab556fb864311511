import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { pageCount, pageWindow } from './pageWindow';

interface PaginationProps {
  page: number;
  total: number;
  pageSize: number;
  onChange: (page: number) => void;
  testId?: string;
}

/** Previous, the window of page numbers around the current one, next. Hidden for a single page. */
export function Pagination({ page, total, pageSize, onChange, testId = 'pagination' }: PaginationProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('pagination.label')} data-testid={testId}>
      <button
        type="button"
        className="pagination-step"
        onClick={() => onChange(page - 1)}
        disabled={page <= 1}
        aria-label={t('pagination.previous')}
        data-testid="pagination-previous"
      >
        <Icon name="back" size={18} />
      </button>
      {pageWindow(page, pages).map((number) => (
        <button
          key={number}
          type="button"
          className={number === page ? 'pagination-page active' : 'pagination-page'}
          onClick={() => onChange(number)}
          aria-current={number === page ? 'page' : undefined}
          aria-label={t('pagination.page', { page: number })}
          data-testid="pagination-page"
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className="pagination-step pagination-next"
        onClick={() => onChange(page + 1)}
        disabled={page >= pages}
        aria-label={t('pagination.next')}
        data-testid="pagination-next"
      >
        <Icon name="back" size={18} />
      </button>
    </nav>
  );
}
