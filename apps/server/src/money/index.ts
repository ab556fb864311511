/**
 * The money core's public entry: the only file of money/ that code outside it imports (a lint
 * rule holds it). What is not exported here is the core's own.
 */
export { answerFrom, answerOf } from './answers';
export type { BalanceChange, BalanceFeed } from './balance-feed';
export { coinBalance } from './coins';
export type { MoneyCore } from './core';
export { creditOf, creditedBy, creditedKeys, creditedSince, depositCredits, moneySince } from './credits';
export type { CreditHandler, Credited, RecordedCredit } from './credits';
export { KeyTaken, derive, idempotencyOf, isDuplicateKey, refuseOtherRequest } from './idempotency';
export type { Idem } from './idempotency';
export { BASE_CURRENCY, CURRENCIES, InsufficientFunds, LedgerError, account, balances, checkInvariants, ledgerCurrency, ledgerCurrencySql, ledgerCurrencySqlText, memberCurrency } from './ledger';
export type { AccountId, Currency, PostingKind } from './ledger';
export { CORE_CODES, transferCode } from './codes';
export type { DomainCode } from './codes';
export type { LedgerReports } from './ledger-reports';
export { moneyModule } from './module';
export type { NewOperation, OperationRow } from './operations';
export type { DepositRules, IncomingRefusal, MoneyIncoming, MoneyLeaving } from './policies';
export type { MemberPosition } from './positions';
export type { OperationStatus } from './tables';
export { SeamlessWallet } from './seamless';
export type { AppliedSeamless } from './seamless';
export type { MoneyReads } from './tables';
