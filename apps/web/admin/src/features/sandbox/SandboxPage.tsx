import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/client';
import { parseMajor } from '../../shared/money';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

const GAME_MODES = ['none', 'down', 'timeout', 'error-after-take'] as const;

/** Sandbox tools, shown while the sandboxes are on: provider faults, the bonus clock, sandbox rounds. */
export function SandboxPage() {
  const { t } = useTranslation();
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: () => call('dashboard') });
  const [done, setDone] = useState<string | null>(null);
  // One runner for the tools: each click names its contract call.
  const tool = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      setDone(t('sandbox.done'));
      void dashboard.refetch();
    },
  });
  const [game, setGame] = useState('PG');
  const [mode, setMode] = useState<(typeof GAME_MODES)[number]>('none');
  const [latency, setLatency] = useState(0);
  const [clock, setClock] = useState('');
  const [round, setRound] = useState({ code: 'PG', username: '', stake: '10.00', multiplier: 0, rounds: 1 });
  // The stake is typed in baht (the sandbox's rounds are in the game account's currency) and sent in minor units.
  const stakeMajor = parseMajor(round.stake, 'THB');
  const stakeMinor = stakeMajor === null || stakeMajor <= 0 ? null : Math.round(stakeMajor * 100);
  if (dashboard.data && !dashboard.data.sandbox) return <Page title={t('sandbox.title')}><p>{t('common.none')}</p></Page>;
  const submit = (event: FormEvent, run: () => void) => {
    event.preventDefault();
    run();
  };
  return (
    <Page title={t('sandbox.title')}>
      <p className="muted">{t('sandbox.hint')}</p>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={tool.error} />
      <div className="grid">
        <Card title={t('sandbox.gameFaults')}>
          <form className="form" onSubmit={(e) => submit(e, () => tool.mutate(() => call('sandboxGameFault', { params: { code: game }, body: { mode, latencyMs: latency } })))}>
            <label className="field">
              <span>{t('dashboard.providers')}</span>
              <select value={game} onChange={(e) => setGame(e.target.value)}>
                {dashboard.data?.providers.map((p) => <option key={p.code} value={p.code}>{p.code} ({p.mode})</option>)}
              </select>
            </label>
            <label className="field">
              <span>{t('sandbox.mode')}</span>
              <select value={mode} onChange={(e) => setMode(e.target.value as (typeof GAME_MODES)[number])}>
                {GAME_MODES.map((m) => <option key={m} value={m}>{t(`dashboard.providerMode.${m}`)}</option>)}
              </select>
            </label>
            <label className="field">
              <span>{t('sandbox.latency')}</span>
              <input type="number" min={0} max={60000} value={latency} onChange={(e) => setLatency(Number(e.target.value))} />
            </label>
            <button className="btn btn-primary" type="submit">{t('sandbox.apply')}</button>
          </form>
        </Card>
        <Card title={t('sandbox.bankFault')}>
          <div className="row wrap">
            {(['none', 'captcha', 'error'] as const).map((m) => (
              <button key={m} type="button" className="btn" onClick={() => tool.mutate(() => call('sandboxBankFault', { body: { mode: m } }))}>{m}</button>
            ))}
          </div>
          <h3>{t('sandbox.ewalletFault')}</h3>
          <div className="row wrap">
            {(['none', 'down', 'hang'] as const).map((m) => (
              <button key={m} type="button" className="btn" onClick={() => tool.mutate(() => call('sandboxEwalletFault', { body: { mode: m } }))}>{m}</button>
            ))}
          </div>
        </Card>
        <Card title={t('sandbox.clock')}>
          <p className="muted">{t('sandbox.clockHint')}</p>
          <form className="form" onSubmit={(e) => submit(e, () => tool.mutate(() => call('sandboxClock', { body: clock ? { at: new Date(clock).toISOString() } : { offsetMs: 0 } })))}>
            <label className="field">
              <span>{t('sandbox.clockAt')}</span>
              <input type="datetime-local" value={clock} onChange={(e) => setClock(e.target.value)} />
            </label>
            <button className="btn btn-primary" type="submit">{t('sandbox.apply')}</button>
          </form>
        </Card>
        <Card title={t('sandbox.rounds')}>
          <form className="form" onSubmit={(e) => submit(e, () => { if (stakeMinor !== null) tool.mutate(() => call('sandboxGameRounds', { params: { code: round.code }, body: { username: round.username, stake: stakeMinor, multiplier: round.multiplier, rounds: round.rounds } })); })}>
            <label className="field">
              <span>{t('dashboard.providers')}</span>
              <select value={round.code} onChange={(e) => setRound({ ...round, code: e.target.value })}>
                {dashboard.data?.providers.map((p) => <option key={p.code} value={p.code}>{p.code}</option>)}
              </select>
            </label>
            <label className="field">
              <span>{t('sandbox.username')}</span>
              <input required value={round.username} onChange={(e) => setRound({ ...round, username: e.target.value })} />
            </label>
            <label className="field">
              <span>{t('sandbox.stake')}</span>
              <input inputMode="decimal" value={round.stake} aria-invalid={stakeMinor === null || undefined} onChange={(e) => setRound({ ...round, stake: e.target.value })} />
            </label>
            <label className="field">
              <span>{t('sandbox.multiplier')}</span>
              <input type="number" min={0} step="any" value={round.multiplier} onChange={(e) => setRound({ ...round, multiplier: Number(e.target.value) })} />
            </label>
            <label className="field">
              <span>{t('sandbox.count')}</span>
              <input type="number" min={1} max={100} value={round.rounds} onChange={(e) => setRound({ ...round, rounds: Number(e.target.value) })} />
            </label>
            <button className="btn btn-primary" type="submit">{t('sandbox.play')}</button>
          </form>
        </Card>
      </div>
    </Page>
  );
}
