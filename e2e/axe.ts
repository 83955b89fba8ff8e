/**
 * axe-core for the end-to-end specs, one way everywhere: the WCAG tags the console is held to, and
 * the check that a page (or a part of it) has no serious or critical violation.
 *
 * Legacy mode (`axe.run` in the page) instead of @axe-core/playwright's default, which runs axe per
 * frame and then opens a blank page for every check to merge the frames' results, injecting axe's
 * 500 kB source there too. The console has no cross-origin frames, the one thing only the default
 * reaches; the blank page per check cost the accessibility sweep a third of its CPU (the members
 * part: 120 → 87 CPU-seconds, browser included, measured in a cpuacct cgroup).
 *
 * axe's source enters a document once: AxeBuilder evaluates it twice per check, and the console moves
 * between its pages without reloading, so one document is checked many times (the accessibility
 * sweep: about 120 checks). Only violations are asked for (axe's `resultTypes`, its documented way
 * to skip building selectors and details for the elements that pass); the specs read nothing else.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Evaluated instead of axe's source when the document already has axe. */
const ALREADY_LOADED = ';';

/** An axe check of `page`, set up as every spec runs it; chain include/withRules/withTags on it (not `options`). */
export async function axeFor(page: Page): Promise<AxeBuilder> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  return new AxeBuilder({ page, ...(loaded ? { axeSource: ALREADY_LOADED } : {}) }).setLegacyMode().options({ resultTypes: ['violations'] });
}

/** Fails with each serious or critical WCAG A/AA violation (rule and elements) on the page, or in `include` only. */
export async function expectAxeClean(page: Page, include?: string): Promise<void> {
  const builder = (await axeFor(page)).withTags(WCAG_TAGS);
  const result = await (include ? builder.include(include) : builder).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
