// Thai and Latin subsets of Noto Sans Thai, regular and semibold; each @font-face uses
// font-display: swap and a unicode-range, so a browser downloads only the files it needs.
import '@fontsource/noto-sans-thai/thai-400.css';
import '@fontsource/noto-sans-thai/latin-400.css';
import '@fontsource/noto-sans-thai/thai-600.css';
import '@fontsource/noto-sans-thai/latin-600.css';
