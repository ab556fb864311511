import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { depositLookupSchema } from '@mw/contract/lookups';
import type { LookupService } from '../lookup/lookup-service';
import type { SettingsService } from '../settings/settings-service';
import type { DepositChannelsTable, DepositDb } from './tables';

export type Channel = Selectable<DepositChannelsTable>;
export type NewChannel = Omit<Channel, 'updated_at'>;

/** Display names of the QR payment providers (they are not banks). */
const PROVIDER_NAMES: Record<string, string> = { WW: 'WW Pay', PAYTIMZ: 'Paytimz', PAYONEX: 'Payonex', ZPAY: 'ZPay' };

/**
 * Deposit channels: the bank accounts, QR payment providers and e-wallets members deposit to,
 * in the database (operators change them with PUT /api/operator/deposit-channels/:id), and the
 * "manual" switch (isManual). A member sees the active channels in the member's currency.
 */
export class ChannelService {
  constructor(
    private readonly db: Kysely<DepositDb>,
    private readonly lookups: LookupService,
    private readonly settings: SettingsService,
  ) {}

  async all(): Promise<Channel[]> {
    return this.db.selectFrom('deposit_channels').selectAll().orderBy('sort').orderBy('id').execute();
  }

  /** GET /api/lookup/deposit for a member of this currency (BAHT or LAK). */
  async lookup(currency: string): Promise<z.input<typeof depositLookupSchema>> {
    const [channels, banks, isManual] = await Promise.all([
      this.db.selectFrom('deposit_channels').selectAll().where('active', '=', true).where('currency', '=', currency).orderBy('sort').orderBy('id').execute(),
      this.lookups.banks(),
      this.settings.get<boolean>('depositManual', false),
    ]);
    const names = new Map(banks.map((b) => [b.code, b]));
    return {
      banks: channels
        .filter((c) => c.kind === 'bank')
        .map((c) => {
          const bank = names.get(c.bank_code);
          const name = PROVIDER_NAMES[c.bank_code] ?? c.bank_code;
          return {
            bankCode: c.bank_code,
            bankType: c.bank_type,
            mode: c.mode,
            bank: { nameTH: bank?.nameTH ?? name, nameEN: bank?.nameEN ?? name, nameLA: bank?.nameLA ?? name },
            bankAccountName: c.account_name,
            bankAccountNo: c.account_no,
            currency: c.currency,
          };
        }),
      wallets: channels
        .filter((c) => c.kind === 'wallet')
        .map((c) => ({ walletAccountName: c.account_name, mode: c.mode, ...(c.mode === 'AUTO' ? { walletAccountNo: c.account_no } : {}) })),
      isManual,
    };
  }

  /**
   * The active channel that takes QR payments for this provider code (a PAYMENT provider, or a bank
   * in SMS mode): the one in the member's currency when given and there is one.
   */
  async qrChannel(provider: string, currency?: string): Promise<Channel | null> {
    const rows = await this.db.selectFrom('deposit_channels').selectAll().where('kind', '=', 'bank').where('bank_code', '=', provider).where('active', '=', true).orderBy('sort').orderBy('id').execute();
    const qr = rows.filter((c) => c.bank_type === 'PAYMENT' || c.mode === 'SMS');
    return qr.find((c) => c.currency === currency) ?? qr[0] ?? null;
  }

  /** Our bank account with this number at this bank, active or not. */
  async byAccount(bankCode: string, accountNo: string): Promise<Channel | null> {
    const row = await this.db.selectFrom('deposit_channels').selectAll().where('kind', '=', 'bank').where('bank_code', '=', bankCode).where('account_no', '=', accountNo).executeTakeFirst();
    return row ?? null;
  }

  /** Whether the bank feed reports transfers into this account to us: an active AUTO channel. */
  async fedByBank(bankCode: string, accountNo: string): Promise<boolean> {
    const channel = await this.byAccount(bankCode, accountNo);
    return channel !== null && channel.active && channel.mode === 'AUTO';
  }

  async upsert(channel: NewChannel): Promise<Channel> {
    const values = { ...channel, updated_at: new Date() };
    return this.db
      .insertInto('deposit_channels')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Adds the channels that are missing (an operator's changes stay). */
  async seed(channels: NewChannel[]): Promise<void> {
    if (channels.length === 0) return;
    await this.db.insertInto('deposit_channels').values(channels).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}
