/**
 * The rule table's findings (collectFindings) for a monitor that judges every answer: a rule is
 * run again only when what it reads changed since the previous snapshot.
 *
 * A rule of a section (Rule.section: ntp, gnss, ptp) reads that section of the snapshot, the
 * observations about that section, the time that section's answer arrived, the poll interval and
 * the thresholds, and nothing else (test/monitor/findings-memo.test.ts holds every rule of the
 * table to it). So while those are the very same values, its findings are the ones it gave last
 * time: an answer of one section runs that section's rules alone. The device's rules read every
 * section (and the device's URL); they run every time, being few and cheap.
 *
 * Sections are compared by identity: the monitor keeps each section's result as one object until
 * the next answer of that section replaces it.
 */
import { ruleContext, ruleFindings, rules, type Finding, type HealthContext, type RuleContext, type Thresholds } from './health.js';
import type { SectionName, Snapshot } from '../model/snapshot.js';

const sections: readonly SectionName[] = ['ntp', 'gnss', 'ptp', 'alarm'];

/** Everything a rule of `name` reads. */
function sectionInputs(name: SectionName, snapshot: Snapshot, c: RuleContext): unknown[] {
  return [snapshot[name], c.answeredAt(name), c.intervalMs, c.thresholds, ...c.observed.filter((o) => o.section === name)];
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export class FindingsMemo {
  private readonly inputs = new Map<SectionName, unknown[]>();
  /** Each rule's findings of the previous snapshot, by its index in the table. */
  private readonly kept: Finding[][] = [];

  /** collectFindings(snapshot, thresholds, context), reusing what cannot have changed. */
  collect(snapshot: Snapshot, thresholds: Thresholds, context: HealthContext): Finding[] {
    const c = ruleContext(snapshot, thresholds, context);
    const unchanged = new Set<SectionName>();
    for (const name of sections) {
      const now = sectionInputs(name, snapshot, c);
      const before = this.inputs.get(name);
      if (before && sameItems(before, now)) unchanged.add(name);
      this.inputs.set(name, now);
    }
    return rules.flatMap((rule, i) => {
      const kept = this.kept[i];
      const findings = kept && rule.section !== 'device' && unchanged.has(rule.section) ? kept : ruleFindings(rule, snapshot, c);
      this.kept[i] = findings;
      return findings;
    });
  }
}
