// Loaded on demand when the locale is Lao (see i18n.ts).
import '@fontsource/noto-sans-lao/lao-400.css';
import '@fontsource/noto-sans-lao/lao-600.css';
