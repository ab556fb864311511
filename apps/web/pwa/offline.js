// The offline page's texts in the member's language (localStorage `locale`, as the app keeps it;
// else the build's default), and its retry: a reload, also as soon as the connection is back.
(function () {
  var texts = __TEXTS__;
  var locale = null;
  try {
    locale = window.localStorage.getItem('locale');
  } catch {
    // storage refused (private mode): the default language
  }
  var chosen = texts[locale] ? locale : __DEFAULT_LOCALE__;
  var t = texts[chosen];
  document.documentElement.lang = t.tag;
  document.title = t.title;
  document.getElementById('offline-title').textContent = t.title;
  document.getElementById('offline-text').textContent = t.text;
  var retry = document.getElementById('offline-retry');
  retry.textContent = t.retry;
  retry.addEventListener('click', function () {
    window.location.reload();
  });
  window.addEventListener('online', function () {
    window.location.reload();
  });
})();
