/**
 * Whether the player's browser is the one they know as Safari: the Safari of a Mac, an iPhone or
 * an iPad (iPadOS's Safari says it is a Mac). On iPhone and iPad every browser is WebKit, and
 * WebKit's deletion of a site's storage after 7 days without a visit may come with Chrome,
 * Firefox or Edge there as well; but their players know them by those names, so they are told
 * of "this browser", not of a Safari they do not think they use. Safari's user agent is the one
 * with `Version/` and `Safari/` and none of the other browsers' own words (CriOS is Chrome on
 * iOS, FxiOS Firefox, EdgiOS Edge, and Chromium-based browsers say Chrome).
 */
const OTHER_BROWSERS =
  /Chrome|Chromium|CriOS|FxiOS|EdgiOS|EdgA?\/|OPR|OPiOS|OPT\/|Android|DuckDuckGo|GSA\/|Firefox/;

export function isSafari(userAgent: string): boolean {
  return (
    /\bVersion\/\d/.test(userAgent) &&
    /\bSafari\/\d/.test(userAgent) &&
    !OTHER_BROWSERS.test(userAgent)
  );
}
