import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { statusText } from '../src/features/statement/statementText';
import { en } from '../src/i18n/en';
import { th } from '../src/i18n/th';

/** A deposit held by the member's responsible-play rules, then returned or released: its statement line in words (never the code). */
describe('statement lines of held deposits', () => {
  beforeAll(() => {
    // The statement's texts come with its page (as the statement test loads them).
    i18next.addResourceBundle('en', 'translation', en, true, true);
    i18next.addResourceBundle('th', 'translation', th, true, true);
  });
  afterEach(async () => {
    await i18next.changeLanguage('th');
  });

  it('reads held with its rule while in progress, and sent back once returned, in English and Thai', async () => {
    await i18next.changeLanguage('en');
    expect(statusText('PENDING', 'DEPOSIT_LIMIT')).toBe(`${en.statement.status.pending}: ${en.responsible.reasonDEPOSIT_LIMIT}`);
    expect(statusText('PENDING', 'TIME_OUT')).toBe(`${en.statement.status.pending}: ${en.responsible.reasonTIME_OUT}`);
    expect(statusText('FAILED', 'DEPOSIT_RETURNED')).toBe(`${en.statement.status.failed}: ${en.responsible.reasonDEPOSIT_RETURNED}`);
    // A withdrawal in progress has no reason shown.
    expect(statusText('PENDING', null)).toBe(en.statement.status.pending);
    await i18next.changeLanguage('th');
    const th = statusText('FAILED', 'DEPOSIT_RETURNED');
    expect(th).toContain('ส่งคืนแล้ว');
    expect(th).not.toContain('DEPOSIT_RETURNED');
  });
});
