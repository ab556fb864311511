import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { HOWTO_VIDEOS, videoUrl, type HowtoVideo } from './howtoVideos';
import './howto.css';

export function HowtoPage() {
  const { t } = useTranslation();
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
            key={playing.id}
            className="howto-player"
            src={videoUrl(playing)}
            controls
            autoPlay
            playsInline
            preload="metadata"
            data-testid="howto-player"
          >
            {t('howto.videoUnsupported')}
          </video>
        )}
      </Modal>
    </section>
  );
}
