import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetSiteActiveGuard } from '../src/app/guards/SiteActiveGuard';
import { setupI18n } from '../src/i18n/i18n';

setupI18n();
// Lazy pages and modals are transformed on first import under test, which can take over 1 s.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  resetSiteActiveGuard();
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
