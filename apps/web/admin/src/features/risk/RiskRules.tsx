import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RiskRules as Rules } from '@mw/contract/operator/risk';
import { call } from '../../shared/client';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText, Notice } from '../../shared/ui';

const SWITCHES = ['sameBankAccount', 'sharedBonus', 'nameMismatch'] as const;
const NUMBERS = ['sameDeviceRegistrations', 'sameAddressRegistrations', 'sameAddressHours', 'withdrawalTurnoverPercent', 'failedLogins', 'failedLoginMinutes'] as const;

/** The signals' rules: read by who sees the queue, changed by the owner (audited). */
export function RiskRules({ canChange }: { canChange: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['risk-rules'], queryFn: () => call('riskRulesGet') });
  const [draft, setDraft] = useState<Rules | null>(null);
  const [saved, setSaved] = useState(false);
  const [asked, setAsked] = useState(false);
  const form = draft ?? rules.data ?? null;
  const save = useMutation({
    mutationFn: (body: Rules) => call('riskRulesPut', { body }),
    onSuccess: (answer) => {
      // Loosening a rule is a request a second person approves: the rules stay as they are.
      if ('approvalId' in answer) {
        setAsked(true);
        void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      } else queryClient.setQueryData(['risk-rules'], answer);
      setDraft(null);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form) save.mutate(form);
  };
  const edit = (patch: Partial<Rules>) => {
    if (!form) return;
    setSaved(false);
    setAsked(false);
    setDraft({ ...form, ...patch });
  };
  return (
    <Card title={t('risk.rules')}>
      <p className="muted">{t('risk.rulesHint')}</p>
      <ErrorText error={rules.error ?? save.error} />
      {saved ? <Notice>{asked ? t('settings.awaiting') : t('common.saved')}</Notice> : null}
      {form ? (
        <form className="form" onSubmit={submit}>
          <fieldset disabled={!canChange || save.isPending}>
            {SWITCHES.map((key) => (
              <label key={key} className="field check">
                <input type="checkbox" checked={form[key]} onChange={(e) => edit({ [key]: e.target.checked })} />
                <span>{t(`risk.rule.${key}`)}</span>
              </label>
            ))}
            {NUMBERS.map((key) => (
              <label key={key} className="field">
                <span>{t(`risk.rule.${key}`)}</span>
                <input type="number" min={key.endsWith('Hours') || key.endsWith('Minutes') ? 1 : 0} step={1} value={form[key]} onChange={(e) => edit({ [key]: Number(e.target.value) })} />
              </label>
            ))}
          </fieldset>
          {canChange ? <button type="submit" className="btn btn-primary" disabled={save.isPending || draft === null}>{t('common.save')}</button> : null}
        </form>
      ) : null}
    </Card>
  );
}
