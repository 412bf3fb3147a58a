// Headless Chromium (Debian's package) driven by playwright-core, for the
// browser tests. Suites call `browserOrSkip()` in a describe option so they
// are reported as skipped, with the reason, on a machine without Chromium;
// .ci/run installs it, so CI always runs them.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** `false` when browser tests can run here, else the reason to skip them. In CI they never skip: a missing browser fails. */
export function browserSkipReason(): false | string {
  if (process.env['CI'] === 'true' || existsSync(CHROMIUM_PATH)) return false;
  return `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Root in a container, and a closed network: no sandbox, no background traffic.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a <script>: the site's Content-Security-Policy
  // refuses inline scripts, and DevTools evaluation is not subject to it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations)');
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Waits until a JavaScript expression is true in the page. Instead of
 * page.waitForFunction(string), which evaluates the string with eval inside
 * the page and is refused by the site's CSP (no 'unsafe-eval').
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${expression}`);
    await page.waitForTimeout(50);
  }
}
