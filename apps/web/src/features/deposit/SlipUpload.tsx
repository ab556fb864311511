import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Slip } from '@mw/contract/wallet';
import { ApiError } from '../../shared/api/ApiError';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { depositNs } from './locales';
import { uploadSlip, type SlipProgress } from './slipUpload';

/** What the member may pick (the server sniffs the bytes again; HEIC is refused there with a clear code). */
const ACCEPT = 'image/png,image/jpeg,image/webp,image/heic,image/heif';

type Outcome = { tone: 'success' | 'pending' | 'error'; text: string; status: string };

/**
 * Slip upload in the bank-transfer view (spec sections 2, 7, 8): pick or photograph the slip, see
 * it, upload it with a progress bar (300 s timeout); the answer in the member's language — credited,
 * in progress (the server checks again by itself), or the reason it was refused. The wallet and the
 * slip history are read again after every answer.
 */
export function SlipUpload({ onCredited }: { onCredited: () => void }) {
  const { t: text } = useTranslation(depositNs);
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<SlipProgress | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (!preview) return undefined;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    setOutcome(null);
    if (!chosen) return;
    if (chosen.type !== '' && !chosen.type.startsWith('image/')) {
      setFile(null);
      setPreview(null);
      setOutcome({ tone: 'error', text: text('slipNotImage'), status: 'FAILED' });
      return;
    }
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };

  const settled = (slip: Slip | null) => {
    void queryClient.invalidateQueries({ queryKey: ['statement-slips'] });
    void queryClient.invalidateQueries({ queryKey: ['statement'] });
    if (slip?.status === 'SUCCESS') onCredited();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || progress) return;
    const controller = new AbortController();
    abort.current = controller;
    setOutcome(null);
    uploadSlip(file, setProgress, controller.signal)
      .then((slip) => {
        if (slip.status === 'SUCCESS') {
          const amount = `${currencySign(currency)}${formatMoney(slip.amount, locale)}`;
          setOutcome({ tone: 'success', text: text('slipSuccess', { amount }), status: slip.status });
          toast.success(text('slipSuccess', { amount }));
          setFile(null);
          setPreview(null);
        } else {
          setOutcome({ tone: 'pending', text: text('slipPending'), status: slip.status });
        }
        settled(slip);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const code = error instanceof ApiError ? error.code : null;
        // Every slip reader busy (503 BUSY): the slip was not checked and nothing was kept; send it again.
        if (code === 'BUSY') {
          setOutcome({ tone: 'error', text: text('slipBusy'), status: 'BUSY' });
          settled(null);
          return;
        }
        // What to do next, not only what went wrong: no QR found / a QR that is no slip name the QR;
        // an already-credited transfer says when and how much (errorMessage adds it).
        const reason = code === 'CANNOT_READ_CROPPED_IMAGE' ? text('slipNoQr') : code === 'INVALID_SLIP' ? text('slipQrNotSlip') : refusalMessage(error);
        const credited = code === 'SLIP_REFNO_DUPLICATED' && error instanceof ApiError && typeof error.extra.creditedAt === 'string';
        setOutcome({ tone: credited ? 'pending' : 'error', text: text('slipFailed', { reason }), status: 'FAILED' });
        if (credited) onCredited();
        settled(null);
      })
      .finally(() => setProgress(null));
  };

  const busy = progress !== null;
  const percent = progress?.phase === 'sending' ? progress.percent : 100;
  return (
    <form className="deposit-card form slip-upload" onSubmit={submit} noValidate data-testid="slip-upload">
      <header className="deposit-card-head">
        <span className="channel-badge" aria-hidden="true">
          <Icon name="receipt" size={22} />
        </span>
        <div className="deposit-card-title">
          <h3 className="deposit-card-name">{text('slipTitle')}</h3>
        </div>
      </header>
      <p className="muted slip-upload-hint">{text('slipHint')}</p>
      <label className={`btn btn-ghost btn-block slip-pick${busy ? ' is-disabled' : ''}`}>
        <Icon name="image" size={20} />
        {file ? text('slipChange') : text('slipPick')}
        <input type="file" accept={ACCEPT} className="visually-hidden" onChange={pick} disabled={busy} data-testid="slip-file" />
      </label>
      {preview && <img className="slip-preview" src={preview} alt={text('slipPreview')} data-testid="slip-preview" />}
      {progress && (
        <div className="slip-progress" data-testid="slip-progress">
          <div className="slip-progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={text('slipSend')}>
            <span className="slip-progress-bar" style={{ width: `${percent}%` }} />
          </div>
          <p className="muted">{progress.phase === 'sending' ? text('slipUploading', { percent: progress.percent }) : text('slipChecking')}</p>
        </div>
      )}
      {outcome && (
        <p className={`notice slip-outcome slip-outcome-${outcome.tone}`} role="status" data-testid="slip-result" data-status={outcome.status}>
          <Icon name={outcome.tone === 'success' ? 'check' : outcome.tone === 'pending' ? 'clock' : 'alert'} size={20} />
          <span>{outcome.text}</span>
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!file || busy} data-testid="slip-send">
        {busy && <Spinner />}
        {text('slipSend')}
      </button>
    </form>
  );
}
