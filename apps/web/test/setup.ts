import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetSiteActiveGuard } from '../src/app/guards/SiteActiveGuard';
import { setupI18n } from '../src/i18n/i18n';

setupI18n();

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
