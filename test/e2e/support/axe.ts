import axe from 'axe-core';
import type { Page } from 'playwright-core';

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * The page's serious and critical accessibility violations as axe-core finds them now (all its
 * rules but the experimental ones: WCAG 2.x A and AA and its best practices), one line each:
 * rule, impact, help, elements.
 *
 * axe-core runs in the page itself, injected once per document. (@axe-core/playwright, used
 * before, injected it again on every call and finished each run in a new blank page: 2 to 7 s a
 * screen on a busy two-core machine, against 0.1 to 0.5 s for the same rules run here. The app
 * has no frames, so running in the top document alone misses nothing.)
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const results = await window.axe!.run(document, { resultTypes: ['violations'] });
    return results.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}
