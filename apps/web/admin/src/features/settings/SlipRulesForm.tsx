import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer } from '../../shared/client';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText, Notice } from '../../shared/ui';

type SlipRules = CallAnswer<'slipSettings'>;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The slip rules as a form: upload on or off, the daily closed window (Asia/Bangkok), the oldest transfer accepted. */
export function SlipRulesForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['slip-settings'], queryFn: () => call('slipSettings') });
  const [draft, setDraft] = useState<SlipRules | null>(null);
  const value = draft ?? rules.data ?? null;
  const save = useMutation({
    // Closing uploads applies at once; any other change waits for a second person (202).
    mutationFn: async (body: SlipRules): Promise<boolean> => 'approvalId' in (await call('slipSettingsPut', { body })),
    onSuccess: () => {
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: ['slip-settings'] });
    },
  });
  if (!value) return <Card title={t('settings.slipRules')}>{rules.error ? <ErrorText error={rules.error} /> : <p>{t('common.loading')}</p>}</Card>;
  const fromBad = !HHMM.test(value.closedFrom);
  const toBad = !HHMM.test(value.closedTo);
  const ageBad = !Number.isInteger(value.maxAgeMinutes) || value.maxAgeMinutes < 1 || value.maxAgeMinutes > 7 * 24 * 60;
  const change = (patch: Partial<SlipRules>) => setDraft({ ...value, ...patch });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fromBad && !toBad && !ageBad) save.mutate(value);
  };
  return (
    <Card title={t('settings.slipRules')}>
      <form className="grid-form" onSubmit={submit} noValidate>
        <label className="field check">
          <input type="checkbox" checked={value.uploadEnabled} onChange={(e) => change({ uploadEnabled: e.target.checked })} />
          <span>{t('settings.uploadEnabled')}</span>
        </label>
        <label className="field">
          <span>{t('settings.closedFrom')}</span>
          <input type="time" value={value.closedFrom} aria-invalid={fromBad || undefined} onChange={(e) => change({ closedFrom: e.target.value })} />
          {fromBad ? <span className="field-error">{t('settings.timeFormat')}</span> : null}
        </label>
        <label className="field">
          <span>{t('settings.closedTo')}</span>
          <input type="time" value={value.closedTo} aria-invalid={toBad || undefined} onChange={(e) => change({ closedTo: e.target.value })} />
          {toBad ? <span className="field-error">{t('settings.timeFormat')}</span> : null}
        </label>
        <label className="field">
          <span>{t('settings.maxAge')}</span>
          <input type="number" min={1} max={10080} value={Number.isFinite(value.maxAgeMinutes) ? value.maxAgeMinutes : ''} aria-invalid={ageBad || undefined} onChange={(e) => change({ maxAgeMinutes: Number(e.target.value) })} />
          {ageBad ? <span className="field-error">{t('settings.maxAgeRange')}</span> : null}
        </label>
        <p className="muted row">{t('settings.closedHint')}</p>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || fromBad || toBad || ageBad || draft === null}>
            {t('common.save')}
          </button>
        </div>
      </form>
      {save.isSuccess && draft === null ? <Notice>{save.data ? t('settings.awaiting') : t('common.saved')}</Notice> : null}
      <ErrorText error={save.error} />
    </Card>
  );
}
