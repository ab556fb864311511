/** Currencies of ledger accounts (ISO 4217). A member's BAHT is THB. Adapters and the money core share it. */
export type Currency = 'THB' | 'LAK';
