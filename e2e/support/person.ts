/**
 * A person at the console, for browser specs that measure a flow as people live it: every keystroke takes at
 * least 150 ms and every click comes a second after the last action, each step's seconds are kept, and each
 * page seen is photographed and checked with axe-core (serious and critical violations are collected).
 *
 * The person's own time (the keystrokes and the pauses) is counted into the step's seconds rather than slept: a
 * step's seconds are the machine's time plus the person's, one after the other. A person's pauses would overlap
 * the page's own work, so the figure is a bound on the flow as a person lives it, and the run does not sit idle.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { seriousA11yViolations } from './browser';

export const KEYSTROKE_MS = 150;
export const CLICK_PAUSE_MS = 1000;

export class Person {
  readonly steps: { name: string; seconds: number }[] = [];
  readonly violations: string[] = [];
  private shots = 0;
  /** The person's own milliseconds so far (keystrokes and pauses), counted rather than slept. */
  private ownMs = 0;

  constructor(
    readonly page: Page,
    private readonly artifacts: string,
  ) {}

  /** Types as a person does, one key at a time (each key's events in turn), counting 150 ms a key. */
  async type(field: Locator, text: string): Promise<void> {
    await this.click(field);
    await field.pressSequentially(text);
    this.ownMs += text.length * KEYSTROKE_MS;
  }

  /** Clicks a second after the last thing the person did (reading, finding the button). */
  async click(target: Locator): Promise<void> {
    await this.ready(target);
    await target.click();
  }

  async select(target: Locator, value: string | { label: string }): Promise<void> {
    await this.ready(target);
    await target.selectOption(value);
  }

  async check(target: Locator): Promise<void> {
    await this.ready(target);
    await target.check();
  }

  /** The machine's time plus the person's own: what a step's seconds are measured on. */
  private personNow(): number {
    return Date.now() + this.ownMs;
  }

  /** The target is on the page, and the person takes a second to find it. */
  private async ready(target: Locator): Promise<void> {
    await target.waitFor();
    this.ownMs += CLICK_PAUSE_MS;
  }

  /** Runs one step of the flow and keeps its wall time. */
  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = this.personNow();
    try {
      return await run();
    } catch (err) {
      // What the person saw when the step failed.
      await this.page
        .screenshot({ path: join(this.artifacts, `failed-${name.replace(/\W+/g, '-')}.png`), fullPage: true })
        .catch(() => undefined);
      throw err;
    } finally {
      const seconds = (this.personNow() - started) / 1000;
      this.steps.push({ name, seconds });
      process.stdout.write(`[ten-minute test] ${name}: ${seconds.toFixed(1)} s\n`);
    }
  }

  /**
   * Photographs the page as it is now (kept with the run's artifacts) and runs axe-core on it, under the page's
   * real Content-Security-Policy.
   */
  async seen(name: string): Promise<void> {
    this.shots += 1;
    const file = `${String(this.shots).padStart(2, '0')}-${name}.png`;
    await this.page.screenshot({ path: join(this.artifacts, file), fullPage: true });
    const found = await seriousA11yViolations(this.page);
    this.violations.push(...found.map((v) => `${name}: ${v}`));
  }

  /** The steps and their seconds, and the total, as a table for the run's output. */
  report(): string {
    const total = this.steps.reduce((sum, s) => sum + s.seconds, 0);
    const width = Math.max(...this.steps.map((s) => s.name.length), 5);
    return [
      ...this.steps.map((s) => `${s.name.padEnd(width)}  ${s.seconds.toFixed(1).padStart(6)} s`),
      `${'total'.padEnd(width)}  ${total.toFixed(1).padStart(6)} s`,
    ].join('\n');
  }

  totalSeconds(): number {
    return this.steps.reduce((sum, s) => sum + s.seconds, 0);
  }
}
