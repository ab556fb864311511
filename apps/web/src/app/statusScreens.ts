/** The shut-down page and the not-found page, in a chunk of their own (rarely shown: not in the first download). */
export { NotFoundPage } from '../features/status/NotFoundPage';
export { TerminatedPage } from '../features/status/TerminatedPage';
