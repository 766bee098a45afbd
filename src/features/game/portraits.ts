// The character portraits (SPEC.md section 9: public/characters/1.png … 32.png), counted in
// common/ with the server's story page.
import { PORTRAIT_COUNT } from '../../../common/portraits';

export { PORTRAIT_COUNT };

export const portraitSrc = (portrait: number) => `/characters/${portrait}.png`;

/** The portrait a number or a path such as '/characters/5.png' names, if it is one of the 32. */
export function portraitNumber(value: unknown): number | null {
  const number = typeof value === 'number' ? value : Number(/(\d+)\.png$/.exec(String(value))?.[1]);
  return Number.isInteger(number) && number >= 1 && number <= PORTRAIT_COUNT ? number : null;
}
