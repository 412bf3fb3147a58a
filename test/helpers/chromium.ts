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

/** A word the page breaks across two lines, with where it is. */
export interface BrokenWord {
  word: string;
  /** The tag and class of the element that holds it, such as `td.title` */
  element: string;
}

// Runs in the page: every word of 2 to 20 letters or digits in rendered text, outside code
// and text kept off-screen for screen readers, whose characters land on more than one line.
const BROKEN_WORDS_SCRIPT = `(() => {
  const skipped = 'pre, code, .bb-code, script, style, textarea, select, .visually-hidden, [hidden]';
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || parent.closest(skipped) !== null || parent.getClientRects().length === 0) continue;
    for (const match of node.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
      if (match[0].length < 2 || match[0].length > 20) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (tops.size > 1) found.push({ word: match[0], element: parent.tagName.toLowerCase() + (parent.className ? '.' + String(parent.className).split(' ')[0] : '') });
    }
  }
  return found;
})()`;

/** Words of up to 20 letters that the page breaks across lines (outside code blocks). */
export function brokenWords(page: Page): Promise<BrokenWord[]> {
  return page.evaluate<BrokenWord[]>(BROKEN_WORDS_SCRIPT);
}
