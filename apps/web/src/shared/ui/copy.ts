import i18next from 'i18next';
import { toast } from './toast';

function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
}

/** Copies text and says so: 'Copied: {text}' or 'Failed to copy' (spec section 8). */
export async function copyText(text: string): Promise<boolean> {
  let copied = false;
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      copied = true;
    } else {
      copied = legacyCopy(text);
    }
  } catch {
    copied = legacyCopy(text);
  }
  if (copied) toast.success(i18next.t('common.copied', { text }));
  else toast.error(i18next.t('common.copyFailed'));
  return copied;
}
