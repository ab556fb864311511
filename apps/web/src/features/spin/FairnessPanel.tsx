import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../shared/api/errorMessage';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { useFairness, useRotateSeed } from './spinApi';
import { spinNs } from './locales';

/**
 * Provable fairness: the fingerprint of the secret seed the next spins use, the client seed, the
 * next spin number, the chances of each slice; changing the seed reveals the old one (see the
 * README for how to recompute a spin).
 */
export function FairnessPanel() {
  const { t: text } = useTranslation(spinNs);
  const fairness = useFairness();
  const rotate = useRotateSeed();
  const [revealed, setRevealed] = useState<{ seed: string; spins: number } | null>(null);
  const data = fairness.data;
  const onRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (answer) => setRevealed({ seed: answer.revealed.seed, spins: answer.revealed.spins }),
      onError: (error) => toast.error(errorMessage(error)),
    });
  return (
    <details className="card fairness" data-testid="fairness">
      <summary className="section-title">{text('fairTitle')}</summary>
      <p className="muted">{text('fairText')}</p>
      {data && (
        <dl className="fairness-list">
          <dt>{text('seedHash')}</dt>
          <dd className="mono" data-testid="fairness-hash">
            {data.seedHash}
          </dd>
          <dt>{text('clientSeed')}</dt>
          <dd className="mono">{data.clientSeed}</dd>
          <dt>{text('nonce')}</dt>
          <dd className="mono">{data.nonce}</dd>
          <dt>{text('odds')}</dt>
          <dd>
            <ul className="fairness-odds">
              {data.slices.map((slice) => (
                <li key={slice.code}>
                  <span>{slice.label}</span>
                  <span className="mono">{((slice.weight / data.totalWeight) * 100).toFixed(1)}%</span>
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      )}
      {revealed && (
        <p className="fairness-revealed" data-testid="fairness-revealed">
          {text('revealed', { spins: revealed.spins })}: <span className="mono">{revealed.seed}</span>
        </p>
      )}
      <button type="button" className="btn btn-secondary btn-block" onClick={onRotate} disabled={rotate.isPending} data-testid="fairness-rotate">
        {rotate.isPending && <Spinner />}
        {text('rotate')}
      </button>
    </details>
  );
}
