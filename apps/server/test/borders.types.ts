/**
 * The module borders, held by the type checker (issue 35): every line below names another area's
 * table through an area's own query builder and must NOT
 * compile. `npm run typecheck` fails when one of them starts to compile (an unused
 * `@ts-expect-error` is an error): a border that leaks. Nothing here runs. Writing a published
 * read model (a view) is refused by the database (its trigger; database.test).
 */
import type { Kysely } from 'kysely';
import type { AccountDb } from '../src/modules/account/tables';
import type { ActivityDb } from '../src/modules/activity';
import type { ApprovalTables } from '../src/modules/approval/approval-service';
import type { BonusDb } from '../src/modules/bonus/tables';
import type { ChatDb } from '../src/modules/chat/tables';
import type { DepositDb } from '../src/modules/deposit/tables';
import type { InviteDb } from '../src/modules/invite';
import type { LookupTables } from '../src/modules/lookup/tables';
import type { OperatorsTables } from '../src/modules/operators/tables';
import type { OtpTables } from '../src/modules/otp/tables';
import type { RefundTables } from '../src/modules/refund';
import type { ResponsibleTables } from '../src/modules/responsible/tables';
import type { RiskTables } from '../src/modules/risk/tables';
import type { SettingsTables } from '../src/modules/settings/tables';
import type { SpinTables } from '../src/modules/spin/tables';
import type { WalletDb } from '../src/modules/wallet/tables';
import type { MoneyReads } from '../src/money';
import type { MoneyDb } from '../src/money/tables';

export function bordersHold(db: {
  account: Kysely<AccountDb>;
  activity: Kysely<ActivityDb>;
  approval: Kysely<ApprovalTables>;
  bonus: Kysely<BonusDb>;
  chat: Kysely<ChatDb>;
  deposit: Kysely<DepositDb>;
  invite: Kysely<InviteDb>;
  lookup: Kysely<LookupTables>;
  operators: Kysely<OperatorsTables>;
  otp: Kysely<OtpTables>;
  refund: Kysely<RefundTables>;
  responsible: Kysely<ResponsibleTables>;
  risk: Kysely<RiskTables>;
  settings: Kysely<SettingsTables>;
  spin: Kysely<SpinTables>;
  statement: Kysely<MoneyReads>;
  wallet: Kysely<WalletDb>;
  money: Kysely<MoneyDb>;
}): unknown[] {
  return [
    // @ts-expect-error the lookup module's table (account reads bank_view)
    db.account.selectFrom('banks'),
    // @ts-expect-error the wallet module's table (activity asks the wallet module's catalogue)
    db.activity.selectFrom('games'),
    // @ts-expect-error the operators module's table
    db.approval.selectFrom('operators'),
    // @ts-expect-error the money core's table (bonus reads operation_view)
    db.bonus.selectFrom('operations'),
    // @ts-expect-error the money core's table
    db.bonus.selectFrom('ledger_accounts'),
    // @ts-expect-error the account module's table (chat reads member_view)
    db.chat.selectFrom('members'),
    // @ts-expect-error the account module's table
    db.deposit.selectFrom('sessions'),
    // @ts-expect-error the bonus module's table
    db.invite.selectFrom('bonus_receipts'),
    // @ts-expect-error the account module's table
    db.lookup.selectFrom('members'),
    // @ts-expect-error the approval module's table
    db.operators.selectFrom('operator_approvals'),
    // @ts-expect-error the account module's table
    db.otp.selectFrom('members'),
    // @ts-expect-error the bonus module's table
    db.refund.selectFrom('bonus_receipts'),
    // @ts-expect-error the activity module's table
    db.responsible.selectFrom('game_rounds'),
    // @ts-expect-error the account module's table
    db.risk.selectFrom('sessions'),
    // @ts-expect-error the audit log is the platform's
    db.settings.selectFrom('audit_log'),
    // @ts-expect-error the money core's table
    db.spin.deleteFrom('ledger_entries'),
    // @ts-expect-error the deposit module's table (slip history is the deposit module's service)
    db.statement.selectFrom('slips'),
    // @ts-expect-error the account module's table (wallet reads member_view)
    db.wallet.selectFrom('members'),
    // @ts-expect-error the money core's table
    db.wallet.updateTable('operations'),
    // @ts-expect-error the account module's table (the core reads member_view in raw SQL)
    db.money.selectFrom('members'),
  ];
}
