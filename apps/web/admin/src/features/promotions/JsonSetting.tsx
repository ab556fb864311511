import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api';
import { Card, ErrorText, Notice } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

interface Props {
  title: string;
  /** GET (and PUT, unless a list with putPath) of the setting. */
  path: string;
  /** A list answer: its key, each item's id and where one item is saved. */
  listKey?: string;
  itemKey?: string;
  putPath?: (id: string) => string;
}

/**
 * A setting edited as JSON (the wheel, codes, banners, rules): checked as JSON here, by its schema
 * on the server, which answers which field is wrong. A list is edited one item at a time.
 */
export function JsonSetting({ title, path, listKey, itemKey, putPath }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['setting', path], queryFn: () => api<unknown>('GET', path) });
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
      if (items && putPath) {
        const { [itemKey ?? 'id']: _id, updated_at: _u, ...body } = parsed as Record<string, unknown>;
        return api('PUT', putPath(selected), { body });
      }
      return api('PUT', path, { body: parsed });
    },
    onSuccess: () => {
      setText(null);
      void queryClient.invalidateQueries({ queryKey: ['setting', path] });
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
      {save.isSuccess ? <Notice>{t('common.saved')}</Notice> : null}
      <ErrorText error={save.error} />
    </Card>
  );
}
