import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium, which .ci/run installs. */
const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests are skipped here, or false. On CI its absence fails them instead. */
export const skipWithoutChromium =
  existsSync(CHROMIUM) || process.env.CI === 'true' ? false : `${CHROMIUM} is not installed`;

/** A headless chromium (no sandbox, no GPU, no background networking) and a laptop-sized page. */
export async function launchPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return { browser, page: await browser.newPage({ viewport: { width: 1366, height: 800 } }) };
}
