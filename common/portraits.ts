/**
 * How many character portraits there are (SPEC.md section 9: public/characters/1.png … 32.png):
 * the SPA's portrait screen and story reader, and the server's story page, count the same ones.
 */
export const PORTRAIT_COUNT = 32;
