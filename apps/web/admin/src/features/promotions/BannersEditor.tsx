import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer } from '../../shared/client';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText } from '../../shared/ui';
import { CONTENT_LANGUAGES, TextField, htmlOf, imageProblem, keepsHtml, messageOf, textsOf, SaveOutcome, useServerProblems, type ContentLanguage, type Problems } from './formKit';

type Stored = CallAnswer<'inviteBannersGet'>;
type Which = 'invite' | 'refund';

interface BannerDraft {
  key: number;
  image: string;
  title: string;
  text: string;
  /** The stored HTML had more than a heading and a paragraph (a save simplifies it). */
  simplified: boolean;
}
type Draft = Record<ContentLanguage, BannerDraft[]>;

let nextKey = 0;
const MAX_BANNERS = 10;

/** Stored banners (one list for every language, or one per language) as a list per language. */
export function bannersDraftOf(stored: Stored): Draft {
  const listOf = (lang: ContentLanguage) => (Array.isArray(stored) ? stored : (stored[lang] ?? []));
  const out = {} as Draft;
  for (const lang of CONTENT_LANGUAGES) {
    out[lang] = listOf(lang).map((banner) => {
      nextKey += 1;
      return { key: nextKey, image: banner.image, ...textsOf(banner.html), simplified: !keepsHtml(banner.html) };
    });
  }
  return out;
}

export function validateBanners(draft: Draft, t: TFunction): Problems {
  const problems: Problems = {};
  for (const lang of CONTENT_LANGUAGES) {
    draft[lang].forEach((b, i) => {
      if (imageProblem(b.image)) problems[`${lang}.${i}.image`] = t('forms.banners.imageRule');
      else if (b.image.length > 500) problems[`${lang}.${i}.image`] = t('forms.err.tooLong', { max: 500 });
      if (!b.title.trim() && !b.text.trim() && !b.image.trim()) problems[`${lang}.${i}.html`] = t('forms.banners.empty');
      else if (htmlOf(b.title, b.text).length > 5000) problems[`${lang}.${i}.html`] = t('forms.err.tooLong', { max: 5000 });
    });
  }
  return problems;
}

/** One list per language, each banner's HTML made from its title and text (escaped). */
export function bannersBody(draft: Draft): { th: Array<{ image: string; html: string }>; la: Array<{ image: string; html: string }>; en: Array<{ image: string; html: string }> } {
  const list = (lang: ContentLanguage) => draft[lang].map((b) => ({ image: b.image.trim(), html: htmlOf(b.title, b.text) }));
  return { th: list('th'), la: list('la'), en: list('en') };
}

/** The invite and refund carousels. */
export function Banners() {
  return (
    <>
      <BannersLoader which="invite" />
      <BannersLoader which="refund" />
    </>
  );
}

function BannersLoader({ which }: { which: Which }) {
  const query = useQuery({ queryKey: ['banners', which], queryFn: () => (which === 'invite' ? call('inviteBannersGet') : call('refundBannersGet')) });
  if (!query.data) return <ErrorText error={query.error} />;
  return <BannersEditor which={which} stored={query.data} />;
}

export function BannersEditor({ which, stored }: { which: Which; stored: Stored }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => bannersDraftOf(stored));
  const [lang, setLang] = useState<ContentLanguage>('th');
  const [shown, setShown] = useState(false);
  const problems = validateBanners(draft, t);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bannersBody>) => (which === 'invite' ? call('inviteBannersPut', { body }) : call('refundBannersPut', { body })),
    onSuccess: (answer) => queryClient.setQueryData(['banners', which], answer),
  });
  const server = useServerProblems(save.error);
  const visible = shown ? problems : {};
  const message = (path: string) => messageOf(visible, server, path);
  const setList = (list: BannerDraft[]) => {
    save.reset();
    setDraft({ ...draft, [lang]: list });
  };
  const editBanner = (index: number, patch: Partial<BannerDraft>) => setList(draft[lang].map((b, i) => (i === index ? { ...b, ...patch } : b)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length === 0) save.mutate(bannersBody(draft));
  };
  const title = t(`forms.banners.${which}`);
  const list = draft[lang];
  return (
    <Card title={title}>
      <form className="form" onSubmit={submit} noValidate aria-label={title}>
        <div className="tabs" role="group" aria-label={t('forms.banners.language')}>
          {CONTENT_LANGUAGES.map((l) => {
            const wrong = Object.keys(visible).some((k) => k.startsWith(`${l}.`));
            return (
              <button key={l} type="button" className={`tab${lang === l ? ' selected' : ''}`} aria-pressed={lang === l} onClick={() => setLang(l)}>
                {t(`forms.lang.${l}`)} ({draft[l].length}){wrong ? ' ⚠' : ''}
              </button>
            );
          })}
        </div>
        {list.length === 0 ? <p className="muted">{t('forms.banners.none')}</p> : null}
        {list.map((b, i) => {
          const n = i + 1;
          return (
            <fieldset key={b.key} className="banner-edit">
              <legend>{t('forms.banners.banner', { n })}</legend>
              <div className="banner-fields">
                <TextField type="url" label={t('forms.banners.image')} name={`${lang}.${i}.image`} hint={t('forms.banners.imageRule')} maxLength={500} value={b.image} message={message(`${lang}.${i}.image`)} onChange={(image) => editBanner(i, { image })} />
                <TextField label={t('forms.banners.title')} lang={lang} name={`${lang}.${i}.title`} maxLength={200} value={b.title} message={null} onChange={(value) => editBanner(i, { title: value })} />
                <TextField label={t('forms.banners.text')} lang={lang} name={`${lang}.${i}.text`} maxLength={4000} value={b.text} message={message(`${lang}.${i}.html`)} onChange={(text) => editBanner(i, { text })} />
                {b.simplified ? <p className="muted">{t('forms.banners.simplified')}</p> : null}
                <div className="row">
                  <button type="button" className="btn" disabled={i === 0} onClick={() => setList(list.map((x, j) => (j === i - 1 ? b : j === i ? (list[i - 1] ?? x) : x)))}>
                    {t('forms.banners.up', { n })}
                  </button>
                  <button type="button" className="btn" onClick={() => setList(list.filter((_, j) => j !== i))}>
                    {t('forms.banners.remove', { n })}
                  </button>
                </div>
              </div>
              <figure className="banner-preview" lang={lang} aria-label={t('forms.banners.preview', { n })}>
                {b.image && !imageProblem(b.image) ? <img src={b.image} alt="" /> : <div className="banner-noimage">{t('forms.banners.noImage')}</div>}
                {b.title.trim() ? <h3>{b.title.trim()}</h3> : null}
                {b.text.trim() ? <p>{b.text.trim()}</p> : null}
              </figure>
            </fieldset>
          );
        })}
        <div className="row">
          <button type="button" className="btn" disabled={list.length >= MAX_BANNERS} onClick={() => { nextKey += 1; setList([...list, { key: nextKey, image: '', title: '', text: '', simplified: false }]); }}>
            {t('forms.banners.add', { language: t(`forms.lang.${lang}`) })}
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
        <SaveOutcome saved={save.isSuccess} showFix={shown && Object.keys(problems).length > 0} error={save.error} />
      </form>
    </Card>
  );
}
