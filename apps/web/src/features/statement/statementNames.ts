import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useBanks } from '../../shared/api/banks';
import { walletQuery } from '../../shared/api/wallet';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import type { StatementNames } from './statementText';

/** Game names from the wallet's game list and bank names in the UI language, for the statement's rows. */
export function useStatementNames(): StatementNames {
  const locale = useLocale();
  const wallet = useQuery(walletQuery({ background: true }));
  const banks = useBanks();
  return useMemo(() => {
    const games = new Map((wallet.data?.slots ?? []).map((slot) => [slot.code, slot.name]));
    const bankNames = new Map((banks.data ?? []).map((bank) => [bank.code, bankName(bank, locale)]));
    return { game: (code) => games.get(code), bank: (code) => bankNames.get(code) };
  }, [wallet.data, banks.data, locale]);
}
