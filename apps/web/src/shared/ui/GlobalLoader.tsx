import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOADER_DELAY_MS } from '@mw/contract/constants';
import { usePendingRequests } from '../api/loading';

/** Appears only when requests take longer than 200 ms, so fast answers never flash it. */
export function GlobalLoader() {
  const { t } = useTranslation();
  const busy = usePendingRequests() > 0;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setVisible(true), LOADER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setVisible(false);
    };
  }, [busy]);

  if (!busy || !visible) return null;
  return (
    <div className="global-loader" role="progressbar" aria-label={t('common.loading')} data-testid="global-loader">
      <div className="global-loader-bar" />
    </div>
  );
}
