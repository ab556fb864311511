import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Card, ErrorText, Notice } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

interface Props {
  title: string;
  /** Reads the setting (a contract call through the client). */
  load: () => Promise<unknown>;
  /** Saves it (one item of a list: its id) — a contract call through the client. */
  store: (body: unknown, id: string) => Promise<unknown>;
  /** A list answer: its key and each item's id (a list is edited one item at a time). */
  listKey?: string;
  itemKey?: string;
  /** The query key of the setting's cache. */
  cacheKey: string;
}

/**
 * A setting edited as JSON (the wheel, codes, banners, rules): checked as JSON here, by its schema
 * on the server, which answers which field is wrong. A list is edited one item at a time.
 */
export function JsonSetting({ title, load, store, listKey, itemKey, cacheKey }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['setting', cacheKey], queryFn: load });
  const items = listKey && query.data ? ((query.data as Record<string, unknown>)[listKey] as Array<Record<string, unknown>>) : null;
  const [selected, setSelected] = useState<string>('');
  const current = items ? (items.find((i) => String(i[itemKey ?? 'id']) === selected) ?? null) : query.data;
  // null: untouched, the stored value is shown; a selection or a save goes back to it.
  const [edited, setText] = useState<string | null>(null);
  const text = edited ?? (current === undefined || current === null ? '' : JSON.stringify(current, null, 2));
  let parsed: unknown = null;
  let invalid: string | null = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch (error) {
    invalid = error instanceof Error ? error.message : 'JSON';
  }
  const save = useMutation({
    mutationFn: () => {
      if (items) {
        const { [itemKey ?? 'id']: _id, updated_at: _u, ...body } = parsed as Record<string, unknown>;
        return store(body, selected);
      }
      return store(parsed, '');
    },
    onSuccess: () => {
      setText(null);
      void queryClient.invalidateQueries({ queryKey: ['setting', cacheKey] });
    },
  });
  return (
    <Card title={title}>
      <ErrorText error={query.error} />
      {items ? (
        <label className="field">
          <span>{t('promotions.code')}</span>
          <select value={selected} onChange={(e) => { setSelected(e.target.value); setText(null); }}>
            <option value="">—</option>
            {items.map((i) => (
              <option key={String(i[itemKey ?? 'id'])} value={String(i[itemKey ?? 'id'])}>
                {String(i[itemKey ?? 'id'])}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span>{t('promotions.json')}</span>
        <textarea className="mono code" rows={12} value={text} aria-invalid={invalid ? 'true' : 'false'} onChange={(e) => setText(e.target.value)} />
      </label>
      {invalid ? <p className="error" role="alert">{t('promotions.invalidJson', { message: invalid })}</p> : null}
      <button type="button" className="btn btn-primary" disabled={Boolean(invalid) || !text || save.isPending || (Boolean(items) && !selected)} onClick={() => save.mutate()}>
        {t('common.save')}
      </button>
      {save.isSuccess ? <Notice>{isAwaiting(save.data) ? t('settings.awaiting') : t('common.saved')}</Notice> : null}
      <ErrorText error={save.error} />
    </Card>
  );
}

/** Whether a save answered 202 awaiting-approval (a credit code, a bonus above the cap: a second person applies it). */
export function isAwaiting(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && 'approvalId' in answer;
}
