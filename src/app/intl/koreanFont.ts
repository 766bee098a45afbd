// Hangul glyphs, split by unicode-range so a page downloads only the subsets it shows.
import '@fontsource/noto-serif-kr/400.css';
import '@fontsource/noto-serif-kr/700.css';
