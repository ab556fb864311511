import i18next from 'i18next';
import { currentLocale } from '../../i18n/i18n';
import './updatePrompt.css';

/**
 * The installable app's page side (loaded by main.tsx after the first render, never in the first
 * download): registers the service worker (/sw.js, made by the build: apps/web/pwa/), links the
 * web app manifest of the page's language, and shows "A new version is ready — Reload" when a new
 * build's worker has installed and waits. Reload asks that worker to take over; the page reloads
 * once it controls it (controllerchange), so the new build's files come from its new cache.
 */
export function registerServiceWorker(): void {
  followLanguage();
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  // The first worker of a page claims it (nothing to reload); a worker that replaces another (the
  // member chose Reload, here or in another tab) reloads the page, whose files are the old build's.
  let controller = container.controller;
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    const replaced = controller !== null;
    controller = container.controller;
    if (!replaced || reloading) return;
    reloading = true;
    window.location.reload();
  });
  container
    .register('/sw.js', { scope: '/', updateViaCache: 'none' })
    .then((registration) => {
      const offer = () => {
        if (registration.waiting && container.controller) showPrompt(registration.waiting);
      };
      offer();
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer();
        });
      });
      // A phone keeps the app open for days: look for a new build whenever it comes back to it.
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') void registration.update().catch(() => undefined);
      });
    })
    .catch(() => undefined);
}

/** The manifest link follows the page's language (the install dialog then speaks it). */
function followLanguage(): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link) return;
  const apply = () => {
    link.href = `/manifest.${currentLocale()}.webmanifest`;
  };
  apply();
  i18next.on('languageChanged', apply);
}

let prompt: HTMLElement | null = null;

function showPrompt(worker: ServiceWorker): void {
  if (prompt) return;
  const box = document.createElement('div');
  box.className = 'update-prompt';
  box.setAttribute('role', 'status');
  box.dataset.testid = 'update-prompt';
  const text = document.createElement('span');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn btn-primary';
  button.dataset.testid = 'update-reload';
  const label = () => {
    text.textContent = i18next.t('pwa.updateReady');
    button.textContent = i18next.t('pwa.reload');
  };
  label();
  i18next.on('languageChanged', label);
  button.addEventListener('click', () => {
    button.disabled = true;
    worker.postMessage({ type: 'SKIP_WAITING' });
  });
  box.append(text, button);
  document.body.append(box);
  prompt = box;
}
