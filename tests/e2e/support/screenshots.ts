// Saves full-page PNGs into tests/e2e/screenshots/ (git-ignored), named "<name>-<width>.png",
// so each screen can be looked at after a run at both widths.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

export const SCREENSHOT_DIR = join(import.meta.dir, "..", "screenshots");

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}
