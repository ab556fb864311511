import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { Modal } from './Modal';
import { SafeHtml } from './SafeHtml';

export interface Banner {
  image: string;
  html: string;
}

/**
 * Banners one at a time (spec section 3, carousel item): swipe (scroll snap), the arrows or the
 * dots; each slide is the image over its sanitised HTML.
 */
export function BannerCarousel({ banners, testId = 'banner-carousel' }: { banners: readonly Banner[]; testId?: string }) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const go = (index: number) => {
    const next = Math.max(0, Math.min(banners.length - 1, index));
    setCurrent(next);
    const el = track.current;
    // scrollTo is missing in some test DOMs; the state still moves.
    if (el && typeof el.scrollTo === 'function') el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
  };
  const onScroll = () => {
    const el = track.current;
    if (el && el.clientWidth > 0) setCurrent(Math.round(el.scrollLeft / el.clientWidth));
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(current + 1);
    if (event.key === 'ArrowLeft') go(current - 1);
  };
  if (banners.length === 0) return null;
  const many = banners.length > 1;
  return (
    <div className="banner-carousel" data-testid={testId} role="region" aria-roledescription="carousel" aria-label={t('carousel.label')} onKeyDown={onKey}>
      <div className="banner-track" ref={track} onScroll={onScroll} tabIndex={many ? 0 : -1}>
        {banners.map((banner, i) => (
          <figure
            key={i}
            className="banner-slide"
            role="group"
            aria-roledescription="slide"
            aria-label={t('carousel.slide', { n: i + 1, total: banners.length })}
            aria-hidden={i !== current}
            data-testid="banner-slide"
          >
            {banner.image && <img src={banner.image} alt="" loading="lazy" />}
            {banner.html && <SafeHtml html={banner.html} className="banner-html" />}
          </figure>
        ))}
      </div>
      {many && (
        <div className="banner-controls">
          <button type="button" className="icon-button" onClick={() => go(current - 1)} disabled={current === 0} aria-label={t('carousel.previous')} data-testid="banner-previous">
            <Icon name="back" size={20} />
          </button>
          <div className="banner-dots">
            {banners.map((_, i) => (
              <button
                key={i}
                type="button"
                className={i === current ? 'banner-dot active' : 'banner-dot'}
                onClick={() => go(i)}
                aria-label={t('carousel.slide', { n: i + 1, total: banners.length })}
                aria-current={i === current ? 'true' : undefined}
              />
            ))}
          </div>
          <button type="button" className="icon-button banner-next" onClick={() => go(current + 1)} disabled={current === banners.length - 1} aria-label={t('carousel.next')} data-testid="banner-next">
            <Icon name="back" size={20} />
          </button>
        </div>
      )}
    </div>
  );
}

/** The carousel banner modal (spec section 2): closing it — or Continue — goes on to what it announces. */
export function BannerCarouselModal({ title, banners, onClose }: { title: string; banners: readonly Banner[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      onClose={onClose}
      testId="banner-modal"
      focusField={false}
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={onClose} data-testid="banner-continue">
          {t('carousel.continue')}
        </button>
      }
    >
      <BannerCarousel banners={banners} />
    </Modal>
  );
}
