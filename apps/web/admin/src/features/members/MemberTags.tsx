import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { memberTagSchema, SUGGESTED_MEMBER_TAGS } from '@mw/contract/operator/backoffice';
import { call } from '../../shared/client';
import { useMutation } from '../../shared/mutation';
import { ErrorText, Notice } from '../../shared/ui';

/** A member's tags (vip, watch, affiliate, …): shown to all who see the member, changed by who may tag. */
export function MemberTags({ memberId, tags, canEdit }: { memberId: string; tags: readonly string[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const listId = useId();
  const [text, setText] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (next: string[]) => call('memberTagsPut', { params: { id: memberId }, body: { tags: next } }),
    onSuccess: () => {
      setText('');
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: ['member', memberId] });
      void queryClient.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const candidate = memberTagSchema.safeParse(text);
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (candidate.success && !tags.includes(candidate.data)) save.mutate([...tags, candidate.data]);
  };
  return (
    <div data-testid="member-tags">
      {saved ? <Notice>{t('members.tagsSaved')}</Notice> : null}
      <ErrorText error={save.error} />
      <ul className="chips">
        {tags.length === 0 ? <li>{t('common.none')}</li> : null}
        {tags.map((tag) => (
          <li key={tag} className="chip">
            {tag}
            {canEdit ? (
              <button type="button" className="btn-link" aria-label={t('members.removeTag', { tag })} disabled={save.isPending} onClick={() => save.mutate(tags.filter((x) => x !== tag))}>
                ✕
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit && tags.length < 10 ? (
        <form className="row" onSubmit={add}>
          <label className="field">
            <span>{t('members.addTag')}</span>
            <input list={listId} value={text} maxLength={24} onChange={(e) => setText(e.target.value)} aria-describedby={`${listId}-hint`} />
          </label>
          <datalist id={listId}>
            {SUGGESTED_MEMBER_TAGS.filter((s) => !tags.includes(s)).map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <button type="submit" className="btn" disabled={save.isPending || !candidate.success}>{t('members.addTag')}</button>
          <small id={`${listId}-hint`} className="muted">{t('members.tagsHint')}</small>
        </form>
      ) : null}
    </div>
  );
}
