import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';

/**
 * The browser side of the dashboard's tests (test/browser/): Debian's Chromium (scripts/setup.sh installs it;
 * CHROMIUM_PATH names another) driven by playwright-core, which downloads no browser of its own. Every page a journey
 * shows is checked by axe-core (injected through the DevTools protocol, so the page's CSP stays as strict as served)
 * and no serious or critical violation may be found; every page the browser navigated to must have been checked; a
 * CSP violation reported by the browser fails the journey; the last screen of each journey is saved as a screenshot
 * under var/artifacts/screenshots (gitignored). Every check is made twice: at the journey's desktop width and at a
 * phone's (`PHONE`, 390 px), where the page must also fit the screen (no horizontal scroll of the document; a wide
 * table scrolls inside its own box) and is saved as `<journey>-<label>-390.png`.
 */

export const SCREENSHOT_DIR = resolve('var/artifacts/screenshots');
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** Generous: conditions are waited for, never time; the deadline is a hang guard on a busy two-core machine. */
export const WAIT_MS = 60_000;

/** The journeys' screens: a desktop, and a phone (an iPhone 12 to 15's CSS viewport) on which every page is checked too. */
export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** A check's label as part of a file name: "secret shown: Key ci" -> "secret-shown-key-ci". */
const slug = (label: string): string =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/**
 * The document's width at the current viewport, and for a failure message what makes it wider than the window: the
 * innermost elements whose right edge passes the window's (tag.class "text…", width, right edge), at most five.
 */
const OVERFLOW_PROBE = `(() => {
  const limit = window.innerWidth + 0.5;
  const out = [];
  // An element's right edge, counting what overflows it (a word wider than its box) unless it clips that.
  const right = (el) => {
    const r = el.getBoundingClientRect();
    return getComputedStyle(el).overflowX === 'visible' ? Math.max(r.right, r.left + el.scrollWidth) : r.right;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || right(el) <= limit) continue;
    if ([...el.children].some((c) => right(c) > limit)) continue;
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    out.push(el.tagName.toLowerCase() + cls + ' "' + (el.textContent || '').trim().slice(0, 40) + '" ' + Math.round(r.width) + ' px wide, right edge at ' + Math.round(right(el)));
    if (out.length === 5) break;
  }
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, offenders: out };
})()`;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium',
    headless: true,
    // Chromium refuses its sandbox to root (CI runs as root here); no untrusted page is ever opened by these tests.
    chromiumSandbox: process.getuid?.() !== 0,
    args: ['--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
    timeout: WAIT_MS,
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

/**
 * One journey: a fresh browser context (its own cookies) on the app's origin, with what it watches: CSP violations
 * and the paths it navigated to, which must each have passed `checkPage`.
 */
export class Journey {
  readonly page: Page;
  readonly cspViolations: string[] = [];
  /** Requests that left the app's origin (there must be none: no CDN, no fonts, no analytics). */
  readonly foreignRequests: string[] = [];
  private readonly navigated = new Set<string>();
  private readonly checked = new Set<string>();
  private readonly passedThrough = new Set<string>();

  private constructor(
    readonly context: BrowserContext,
    page: Page,
    readonly baseUrl: string,
    readonly name: string,
  ) {
    this.page = page;
    const origin = new URL(baseUrl).origin;
    page.setDefaultTimeout(WAIT_MS);
    page.on('console', (msg) => {
      const text = msg.text();
      if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(text)) this.cspViolations.push(text);
    });
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('about:'))
        this.foreignRequests.push(url);
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.navigated.add(new URL(frame.url()).pathname);
    });
  }

  /** A journey in a new browser context; if the test that opened it fails, its screen is saved as `<name>-failed.png`. */
  static async open(browser: Browser, baseUrl: string, name: string): Promise<Journey> {
    const context = await browser.newContext({
      baseURL: baseUrl,
      locale: 'en-GB',
      timezoneId: 'UTC',
      viewport: { ...DESKTOP },
    });
    const j = new Journey(context, await context.newPage(), baseUrl, name);
    onTestFailed(async () => {
      await j.page
        .screenshot({ path: join(SCREENSHOT_DIR, `${name}-failed.png`), fullPage: true })
        .catch(() => undefined);
    });
    return j;
  }

  /** Waits until no load or action of the page is in progress (its progress lines are gone; work it follows may go on). */
  async settled(): Promise<void> {
    await this.page.locator('.progress:not(.ongoing)').first().waitFor({ state: 'detached' });
  }

  /**
   * axe-core on the page as it is now, at the desktop width and at a phone's: no serious or critical violation at
   * either, and at the phone's width the document is no wider than the screen (its screen saved as
   * `<journey>-<label>-390.png`). Records the path as checked.
   */
  async checkPage(label: string): Promise<void> {
    await this.settled();
    const where = `${this.name} / ${label} (${new URL(this.page.url()).pathname})`;
    await this.axe(where);
    await this.page.setViewportSize(PHONE);
    try {
      const fit = (await this.page.evaluate(OVERFLOW_PROBE)) as {
        scrollWidth: number;
        innerWidth: number;
        offenders: string[];
      };
      expect(fit.innerWidth, `${where}: the phone viewport`).toBe(PHONE.width);
      // Soft: one run names every page of the journey that does not fit a phone, not only the first.
      expect
        .soft(fit.scrollWidth, `${where} at ${PHONE.width} px: the page scrolls sideways (${fit.offenders.join('; ')})`)
        .toBeLessThanOrEqual(PHONE.width);
      await this.axe(`${where} at ${PHONE.width} px`, true);
      await this.page.screenshot({
        path: join(SCREENSHOT_DIR, `${this.name}-${slug(label)}-${PHONE.width}.png`),
        fullPage: true,
      });
    } finally {
      await this.page.setViewportSize(DESKTOP);
    }
    this.checked.add(new URL(this.page.url()).pathname);
  }

  /** axe-core on the page as it is now: no serious or critical violation (`soft`: recorded, and the journey goes on). */
  private async axe(where: string, soft = false): Promise<void> {
    const hasAxe = await this.page.evaluate('typeof window.axe !== "undefined"');
    if (!hasAxe) await this.page.evaluate(AXE_SOURCE);
    const violations = (await this.page.evaluate(
      'window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))',
    )) as AxeViolation[];
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    (soft ? expect.soft : expect)(
      serious.map((v) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      where,
    ).toEqual([]);
  }

  /** A screen worth keeping besides the last one: `<journey>-<label>.png`. */
  async screenshot(label: string): Promise<void> {
    await this.page.screenshot({ path: join(SCREENSHOT_DIR, `${this.name}-${label}.png`), fullPage: true });
  }

  /** A page the app left on its own before showing anything to check (e.g. for sign-in when the session had ended). */
  passThrough(path: string): void {
    this.passedThrough.add(path);
  }

  /** The journey's last screen as a PNG, and the checks that cover the whole journey. */
  async finish(): Promise<string> {
    const file = join(SCREENSHOT_DIR, `${this.name}.png`);
    await this.page.screenshot({ path: file, fullPage: true });
    expect(this.cspViolations, `${this.name}: CSP violations`).toEqual([]);
    expect(this.foreignRequests, `${this.name}: requests to other origins`).toEqual([]);
    const unchecked = [...this.navigated].filter(
      (p) => !this.checked.has(p) && !this.passedThrough.has(p) && p !== '/dashboard' && p !== '/dashboard/',
    );
    expect(unchecked, `${this.name}: pages shown without an accessibility check`).toEqual([]);
    await this.context.close();
    return file;
  }
}

/** Signs in through the sign-in page as `kind` and waits for the section's first page. */
export async function signIn(
  j: Journey,
  kind: 'company' | 'merchant',
  email: string,
  password: string,
  home: string,
): Promise<void> {
  const { page } = j;
  await page.goto('/dashboard/');
  await page.getByRole('heading', { name: 'Sign in to Paycore' }).waitFor();
  await j.checkPage('sign-in');
  await page.getByRole('radio', { name: kind === 'company' ? /Company/ : /Merchant/ }).check();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: home }).waitFor();
}

/** The secret in the "shown once" panel, after which the panel is dismissed. */
export async function takeSecret(j: Journey, title: RegExp): Promise<string> {
  const panel = j.page.getByRole('region', { name: title });
  await panel.waitFor();
  const secret = await panel.getByRole('textbox').inputValue();
  await j.checkPage(`secret shown: ${title.source}`);
  await panel.getByRole('button', { name: 'I have saved it' }).click();
  await panel.waitFor({ state: 'detached' });
  return secret;
}

/** The accessible name of the focused element as a keyboard user meets it (its aria-label, else its text). */
export function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(
    '(() => { const el = document.activeElement; return el ? (el.getAttribute("aria-label") ?? el.textContent?.trim() ?? null) : null; })()',
  );
}

/** Moves the focus to `target` with the Tab key only, as a keyboard user would (fails after `max` presses). */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
  }
  throw new Error(
    `${String(target)} was not reached with ${max} presses of Tab (the focus is on ${await focusedName(page)})`,
  );
}
