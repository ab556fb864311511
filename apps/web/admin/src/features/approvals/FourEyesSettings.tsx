import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer } from '../../shared/client';
import { MoneyInput, parseMajor, type CurrencyCode } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText, Notice } from '../../shared/ui';

type Thresholds = CallAnswer<'fourEyesGet'>;
type Field = keyof Thresholds['THB'];
const CURRENCIES: readonly CurrencyCode[] = ['THB', 'LAK'];
const FIELDS: readonly Field[] = ['manual', 'assign', 'payout', 'operatorDay'];

/** The owner's form: four-eyes thresholds per action and per currency, in major units. */
export function FourEyesSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ['four-eyes'], queryFn: () => call('fourEyesGet') });
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [asked, setAsked] = useState(false);
  const save = useMutation({
    mutationFn: (body: Thresholds) => call('fourEyesPut', { body }),
    onSuccess: (answer) => {
      // Raising a threshold is a request a second person approves: the thresholds stay as they are.
      if ('approvalId' in answer) {
        setAsked(true);
        void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      } else queryClient.setQueryData(['four-eyes'], answer);
      setEdits({});
      setSaved(true);
    },
  });
  if (!current.data) return <ErrorText error={current.error} />;
  const data = current.data;
  const text = (c: CurrencyCode, f: Field) => edits[`${c}.${f}`] ?? String(data[c][f]);
  const parsed = (c: CurrencyCode) => {
    const out: Record<Field, number> = { ...data[c] };
    for (const f of FIELDS) {
      const value = parseMajor(text(c, f), c);
      if (value === null) return null;
      out[f] = value;
    }
    return out;
  };
  const thb = parsed('THB');
  const lak = parsed('LAK');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (thb && lak) save.mutate({ THB: thb, LAK: lak });
  };
  return (
    <Card title={t('approvals.settings')}>
      <form onSubmit={submit}>
        {CURRENCIES.map((c) => (
          <fieldset key={c}>
            <legend>{c}</legend>
            {FIELDS.map((f) => (
              <MoneyInput
                key={f}
                name={`${c}.${f}`}
                label={t(`approvals.field.${f}`)}
                currency={c}
                value={text(c, f)}
                onChange={(value) => {
                  setSaved(false);
                  setAsked(false);
                  setEdits((old) => ({ ...old, [`${c}.${f}`]: value }));
                }}
                required
                min={0}
              />
            ))}
          </fieldset>
        ))}
        <button type="submit" className="btn btn-primary" disabled={!thb || !lak || save.isPending}>
          {t('approvals.save')}
        </button>
      </form>
      {saved ? <Notice>{asked ? t('settings.awaiting') : t('approvals.saved')}</Notice> : null}
      <ErrorText error={save.error} />
    </Card>
  );
}
