// Hangul glyphs, split by unicode-range so a page downloads only the subsets it shows: Noto
// Serif KR's Hangul and CJK slices in 400 and 700, claiming no Latin, so the face can come
// first in a stack whose Latin is the system's (written by scripts/korean-font.ts, run by
// npm run intl:compile).
import './compiled/koreanFont.css';
