import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetSiteActiveGuard } from '../src/app/guards/SiteActiveGuard';
import { registerDefaultMessages, setupI18n } from '../src/i18n/i18n';
// Tests render member screens without the member layout: its texts are registered here as it would,
// and the guest texts the app loads after the first screen (i18n.ts loadLaterMessages).
import '../src/i18n/memberMessages';
import { defaultLaterMessages } from '../src/i18n/defaultLaterMessages';

setupI18n();
registerDefaultMessages(defaultLaterMessages);

// jsdom's ArrayBuffer and typed arrays come from another realm than Node's WebCrypto, which then
// refuses them ("not instance of ArrayBuffer"); browsers have one realm. Byte arguments are
// copied into Node's realm here, for tests only.
{
  const subtle = globalThis.crypto.subtle;
  const nodeBytes = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && 'byteLength' in value && !(value instanceof CryptoKey)
      ? Buffer.from(ArrayBuffer.isView(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint8Array(value as ArrayBuffer))
      : value;
  const importKey = subtle.importKey.bind(subtle) as (...args: unknown[]) => Promise<CryptoKey>;
  const encrypt = subtle.encrypt.bind(subtle) as (...args: unknown[]) => Promise<ArrayBuffer>;
  Object.assign(subtle, {
    importKey: (...args: unknown[]) => importKey(...args.map(nodeBytes)),
    encrypt: (...args: unknown[]) => encrypt(...args.map(nodeBytes)),
  });
}
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
