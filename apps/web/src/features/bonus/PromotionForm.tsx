import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Promotion } from '@mw/contract/bonus';
import { ApiError } from '../../shared/api/ApiError';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { showAlert } from '../../shared/ui/alerts';
import { TextField } from '../../shared/ui/fields';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import { useActivatePromotion, useFindPromotion, useNotice } from './bonusApi';
import { bonusNs } from './locales';

type Found = { state: 'searching' } | { state: 'found'; promotion: Promotion } | { state: 'none' };

/** The promotion-code form (spec section 2): the code upper-cased, searched, shown in a modal with receive. */
export function PromotionForm() {
  const { t: text } = useTranslation(bonusNs);
  const { t } = useTranslation();
  const find = useFindPromotion();
  const activate = useActivatePromotion();
  const notice = useNotice();
  const [code, setCode] = useState('');
  const [found, setFound] = useState<Found | null>(null);

  const search = (event: FormEvent) => {
    event.preventDefault();
    const wanted = code.trim();
    if (!wanted) return;
    setFound({ state: 'searching' });
    find.mutate(wanted, {
      onSuccess: (promotion) => setFound({ state: 'found', promotion }),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'NO_PROMOTION') setFound({ state: 'none' });
        else {
          setFound(null);
          void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
        }
      },
    });
  };

  const receive = (promotion: Promotion) =>
    activate.mutate(promotion.code, {
      onSuccess: () => {
        setFound(null);
        setCode('');
        void showAlert({ tone: 'success', title: t('common.saved'), message: text('promoReceived') });
      },
      onError: (error) => void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) }),
    });

  return (
    <form className="card promo-form form" onSubmit={search} noValidate data-testid="promo-form">
      <h2 className="bonus-section-title">{text('promoTitle')}</h2>
      <TextField
        label={text('promoLabel')}
        name="promoCode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={32}
        icon="gift"
        value={code}
        onChange={(event) => setCode(event.target.value.toUpperCase())}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={code.trim() === '' || find.isPending} data-testid="promo-search">
        {find.isPending && <Spinner />}
        {text('promoSearch')}
      </button>
      <Modal
        open={found !== null}
        onClose={() => (activate.isPending ? undefined : setFound(null))}
        title={text('promoTitle')}
        testId="promo-modal"
        focusField={false}
        footer={
          found?.state === 'found' ? (
            <button type="button" className="btn btn-primary btn-block" onClick={() => receive(found.promotion)} disabled={activate.isPending} data-testid="promo-receive">
              {activate.isPending && <Spinner />}
              {text('promoReceive')}
            </button>
          ) : undefined
        }
      >
        {found?.state === 'searching' && (
          <p className="muted" data-testid="promo-searching">
            <Spinner /> {text('promoSearching')}
          </p>
        )}
        {found?.state === 'none' && (
          <p className="muted" data-testid="promo-not-found">
            {text('promoNotFound')}
          </p>
        )}
        {found?.state === 'found' && (
          <div data-testid="promo-result">
            <p className="bonus-code">{found.promotion.code}</p>
            <p>{found.promotion.description}</p>
            {notice.data?.notice && found.promotion.percentFail > 0 && <p className="muted bonus-notice">{notice.data.notice.replace(/%percentFail%/g, String(found.promotion.percentFail))}</p>}
          </div>
        )}
      </Modal>
    </form>
  );
}
