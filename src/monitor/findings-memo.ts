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
import { ruleContext, ruleFindings, rules, type Finding, type HealthContext, type Observation, type RuleContext, type Thresholds } from './health.js';
import { sectionNames, type SectionName, type Snapshot } from '../model/snapshot.js';

/** What the rules of one section read, as last seen. */
interface SectionInputs {
  section: unknown;
  answeredAt: number;
  intervalMs: number | null;
  thresholds: Thresholds;
  observed: readonly Observation[];
}

function inputsOf(name: SectionName, snapshot: Snapshot, c: RuleContext): SectionInputs {
  return { section: snapshot[name], answeredAt: c.answeredAt(name), intervalMs: c.intervalMs, thresholds: c.thresholds, observed: c.observed.filter((o) => o.section === name) };
}

function sameInputs(a: SectionInputs, b: SectionInputs): boolean {
  return (
    a.section === b.section &&
    a.answeredAt === b.answeredAt &&
    a.intervalMs === b.intervalMs &&
    a.thresholds === b.thresholds &&
    a.observed.length === b.observed.length &&
    a.observed.every((o, i) => o === b.observed[i])
  );
}

export class FindingsMemo {
  private readonly inputs = new Map<SectionName, SectionInputs>();
  /** Each rule's findings of the previous snapshot, by its index in the table. */
  private readonly kept: (Finding[] | undefined)[] = [];

  /** collectFindings(snapshot, thresholds, context), reusing what cannot have changed. */
  collect(snapshot: Snapshot, thresholds: Thresholds, context: HealthContext): Finding[] {
    const c = ruleContext(snapshot, thresholds, context);
    const changed = new Set<SectionName | 'device'>(['device']);
    for (const name of sectionNames) {
      const now = inputsOf(name, snapshot, c);
      const before = this.inputs.get(name);
      if (!before || !sameInputs(before, now)) changed.add(name);
      this.inputs.set(name, now);
    }
    const out: Finding[] = [];
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      let findings = this.kept[i];
      if (findings === undefined || changed.has(rule.section)) this.kept[i] = findings = ruleFindings(rule, snapshot, c);
      for (const f of findings) out.push(f);
    }
    return out;
  }
}
