import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { LOCALE_TAGS } from '@mw/contract/constants';
import { useLocale } from '../../shared/format/useLocale';
import { HOWTO_VIDEOS, captionsUrl, posterUrl, videoUrl, type HowtoVideo } from './howtoVideos';
import './howto.css';

export function HowtoPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [playing, setPlaying] = useState<HowtoVideo | null>(null);

  return (
    <section className="page" data-testid="howto-page">
      <header>
        <h1 className="page-title">{t('howto.title')}</h1>
        <p className="page-subtitle">{t('howto.subtitle')}</p>
      </header>
      <ul className="howto-grid">
        {HOWTO_VIDEOS.map((video, index) => (
          <li key={video.id}>
            <button
              type="button"
              className={`howto-card howto-${video.hue}`}
              onClick={() => setPlaying(video)}
              data-testid={`howto-video-${video.id}`}
            >
              <span className="howto-thumb" aria-hidden="true">
                <img className="howto-poster" src={posterUrl(video, locale)} alt="" loading="lazy" decoding="async" width={390} height={844} />
                <span className="howto-index">{index + 1}</span>
                <span className="howto-play">
                  <Icon name="play" size={34} />
                </span>
              </span>
              <span className="howto-title">{t(`howto.videos.${video.id}`)}</span>
              <span className="visually-hidden">{t('howto.play')}</span>
            </button>
          </li>
        ))}
      </ul>
      <Modal open={playing !== null} onClose={() => setPlaying(null)} title={playing ? t(`howto.videos.${playing.id}`) : ''} testId="howto-modal" size="lg">
        {playing && (
          <video
            key={`${playing.id}-${locale}`}
            className="howto-player"
            src={videoUrl(playing, locale)}
            poster={posterUrl(playing, locale)}
            lang={LOCALE_TAGS[locale]}
            controls
            autoPlay
            playsInline
            preload="metadata"
            data-testid="howto-player"
          >
            <track kind="captions" src={captionsUrl(playing, locale)} srcLang={LOCALE_TAGS[locale]} label={t('howto.captions')} />
            {t('howto.videoUnsupported')}
          </video>
        )}
      </Modal>
    </section>
  );
}
