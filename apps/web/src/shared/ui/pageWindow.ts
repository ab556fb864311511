import { PAGINATION_AFTER, PAGINATION_BEFORE } from '@mw/contract/constants';

/** Number of pages needed for `total` rows at `pageSize` rows a page (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page numbers a pager shows: up to 3 before the current page and 1 after it (spec section 9). */
export function pageWindow(current: number, pages: number, before = PAGINATION_BEFORE, after = PAGINATION_AFTER): number[] {
  const last = Math.max(1, pages);
  const page = Math.min(Math.max(1, current), last);
  const first = Math.max(1, page - before);
  const end = Math.min(last, page + after);
  return Array.from({ length: end - first + 1 }, (_, index) => first + index);
}
