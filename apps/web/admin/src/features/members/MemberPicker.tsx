import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/client';

export interface MemberRow {
  id: string;
  username: string;
  name: string;
  bankCode: string;
  bankAccountNo: string;
  bankAccountName: string;
  currency: string;
  status: string;
  inviterId: string | null;
  createdAt: string;
  tags?: string[];
}

export type MemberSort = 'username' | 'name' | 'createdAt' | '-createdAt';

export function searchMembers(q: string, page = 1, pageSize = 10, sort: MemberSort = '-createdAt', status?: 'active' | 'inactive', tag?: string) {
  return call('membersSearch', { query: { q, page, pageSize, sort, status, tag } }) as Promise<{ total: number; members: MemberRow[] }>;
}

/** Finds a member by phone, name, bank account or id, and hands the choice back. */
export function MemberPicker({ label, onPick }: { label: string; onPick: (member: MemberRow) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [q, setQ] = useState('');
  const found = useQuery({ queryKey: ['member-pick', q], queryFn: () => searchMembers(q.trim()), enabled: q.trim().length >= 2 });
  return (
    <div className="picker">
      <label className="field" htmlFor={id}>
        <span>{label}</span>
      </label>
      <input id={id} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      {found.data ? (
        <ul className="list">
          {found.data.members.length === 0 ? <li>{t('common.none')}</li> : null}
          {found.data.members.map((m) => (
            <li key={m.id}>
              <button type="button" className="btn" onClick={() => onPick(m)}>
                {m.name} · {m.username} · {m.bankCode} {m.bankAccountNo}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
