import { vi } from 'vitest';

// chalk decides its color level when first imported: force it on, so colors can be asserted.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

/**
 * What the screen says about the verdict: the findings list (`f`, `!`), the header's colours
 * and words (stale sections, LIVE / NO ANSWER, REC), all from the verdict the store computes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { SectionName, Snapshot } from '../../src/model/snapshot.js';
import type { MonitorState } from '../../src/monitor/state.js';
import { VerdictMemory } from '../../src/monitor/verdict-memory.js';
import { healthyState, NOW, ntpSource, ptpAuthRefusedState, receiver, snapshotOf, unreachableState } from './fixtures.js';
import { ESC, frameViolations, keys, renderApp, stripAnsi } from './harness.js';

afterEach(() => cleanup());

/** The latest poll results as the store holds them: a section's error wins over its old data. */
function latest(state: MonitorState, at: number): Snapshot {
  const snap = snapshotOf(state, at);
  for (const name of ['ntp', 'gnss', 'ptp', 'alarm'] as const) {
    const error = state[name].error;
    if (error) (snap as Record<SectionName, unknown>)[name] = { ok: false, error };
  }
  return snap;
}

/** `state` with the verdict the store would compute: first seen a minute ago, again now. */
function judged(state: MonitorState, edit?: (s: MonitorState) => void): MonitorState {
  const memory = new VerdictMemory();
  memory.evaluate(latest(state, NOW - 60_000), NOW - 60_000);
  edit?.(state);
  state.verdict = memory.evaluate(latest(state, NOW), NOW);
  return state;
}

/** An open antenna, a LOST port, and two dozen false tickers: more findings than 80x24 shows. */
function manyFindings(): MonitorState {
  const s = healthyState();
  s.gnss.data = { receivers: [receiver({ id: 0, antenna: 'open' })] };
  s.ptp.data = { ports: s.ptp.data!.ports.map((p) => (p.id === 1 ? { ...p, syncState: 'LOST' } : p)) };
  s.ntp.data = {
    ...s.ntp.data!,
    sources: [...s.ntp.data!.sources, ...Array.from({ length: 24 }, (_, i) => ntpSource({ name: `peer${i}.example.net`, state: 'False ticker' }))],
  };
  return judged(s);
}

const frameText = (app: { lines(): string[] }) => app.lines().join('\n');

describe('the findings list', () => {
  it('f lists every finding with severity, section and how long; Esc closes; ! opens it too', async () => {
    const state = judged(healthyState(), (s) => {
      // PTP cannot be read now: its findings stay, stale; a new NTP finding appears now.
      s.ptp = { ...s.ptp, error: { kind: 'http', code: '500', message: 'HTTP 500 from the device' }, errorSince: NOW };
      s.ntp.data = { ...s.ntp.data!, sources: [...s.ntp.data!.sources, ntpSource({ name: 'late.example.net', state: 'Too variable' })] };
    });
    const app = await renderApp(state);
    expect(frameText(app)).toContain('(+');
    await app.press('f');
    const f = frameText(app);
    expect(f).toMatch(/findings\s+\(Esc or f closes\)/);
    for (const finding of state.verdict.findings) expect(f).toContain(finding.message.slice(0, 30));
    // Present since the first poll a minute ago: a lower bound. The late one: seen appearing now.
    expect(f).toMatch(/~ WARNING\s+PTP\s+≥ 60s\s+PTP port 1 ACQUIRING \(stale: data 60s old/);
    expect(f).toMatch(/~ WARNING\s+NTP\s+0s\s+NTP source late\.example\.net is too variable/);
    expect(f).toMatch(/~ WARNING\s+device\s+0s\s+PTP cannot be read/);
    await app.press(ESC);
    expect(frameText(app)).not.toContain('Esc or f closes');
    await app.press('!');
    expect(frameText(app)).toContain('Esc or f closes');
    await app.press('f');
    expect(frameText(app)).not.toContain('Esc or f closes');
    app.unmount();
  });

  it('at 80x24 it fits and scrolls to every finding', async () => {
    const state = manyFindings();
    const findings = state.verdict.findings;
    expect(findings.length).toBeGreaterThan(20);
    const app = await renderApp(state, { columns: 80, rows: 24 });
    await app.press('f');
    expect(frameViolations(app.frame(), 80, 24)).toEqual([]);
    let screen = frameText(app);
    expect(screen).toMatch(/! CRITICAL\s+GNSS\s+≥ 60s\s+GNSS receiver 0 antenna open/);
    // The header cuts the long finding, never the hint to the list.
    expect(app.lines()[2]).toMatch(/ \(\+\d+ more: f\)$/);
    expect(screen).toMatch(/↓ \d+ below/);
    const seen = new Set<string>();
    for (let i = 0; i < findings.length; i++) {
      screen = frameText(app);
      for (const f of findings) if (screen.includes(f.message.slice(0, 24))) seen.add(f.message);
      if (seen.size === findings.length) break;
      await app.press(keys.down);
      expect(frameViolations(app.frame(), 80, 24)).toEqual([]);
    }
    expect(seen.size).toBe(findings.length);
    expect(frameText(app)).toMatch(/↑ \d+ above/);
    app.unmount();
  }, 40_000); // one render per line scrolled: a busy machine needs more than 20 s

  it('says so when there is none', async () => {
    const state = healthyState();
    state.verdict = { severity: 'ok', findings: [] };
    const app = await renderApp(state);
    await app.press('f');
    expect(frameText(app)).toContain('no findings: every health check passes');
    app.unmount();
  });
});

describe('the header follows the verdict', () => {
  it('an open antenna (CRITICAL) is red, LIVE too; a healthy device is green', async () => {
    const critical = judged(healthyState(), (s) => void (s.gnss.data = { receivers: [receiver({ id: 0, antenna: 'open' })] }));
    const app = await renderApp(critical, { color: true });
    const [status, verdict] = app.frame().split('\n');
    expect(stripAnsi(verdict!)).toMatch(/^! CRITICAL · /);
    expect(verdict).toMatch(/\x1b\[31m[^\x1b]*GNSS 1 working/);
    expect(status).toMatch(/\x1b\[31m[^\x1b]*● LIVE/);
    app.unmount();

    const ok = healthyState();
    ok.verdict = { severity: 'ok', findings: [] };
    const fine = await renderApp(ok, { color: true });
    expect(fine.frame().split('\n')[0]).toMatch(/\x1b\[32m[^\x1b]*● LIVE/);
    fine.unmount();
  });

  it('before every section has had its first result there is no verdict, and the header claims none', async () => {
    const waiting = healthyState();
    waiting.verdict = { severity: 'ok', findings: [] };
    waiting.ptp = { data: null, receivedAt: null, error: null, errorSince: null, attemptedAt: null };
    const app = await renderApp(waiting, { color: true });
    const [status, verdict] = app.frame().split('\n');
    expect(stripAnsi(verdict!)).toMatch(/^- NO VERDICT YET · /);
    expect(stripAnsi(verdict!)).not.toMatch(/\bOK\b/);
    // Not green: nothing has been judged yet.
    expect(status).not.toMatch(/\x1b\[32m[^\x1b]*● LIVE/);
    app.unmount();
  });

  it('a section that cannot be read says "stale" with its age, in yellow at least', async () => {
    const app = await renderApp(judged(ptpAuthRefusedState()), { color: true });
    const verdict = app.frame().split('\n')[1]!;
    expect(stripAnsi(verdict)).toContain('PTP stale 60s');
    expect(stripAnsi(verdict)).not.toContain('PTP 1/2 STABLE');
    expect(verdict).toMatch(/\x1b\[3[13]m[^\x1b]*PTP stale 60s/);
    app.unmount();
  });

  it('while the device does not answer: NO ANSWER, not LIVE; every section stale', async () => {
    const app = await renderApp(unreachableState());
    const [status, verdict, banner] = app.lines();
    expect(status).toContain('! NO ANSWER');
    expect(status).not.toContain('LIVE');
    expect(verdict).toMatch(/NTP stale 45s · GNSS stale 45s · PTP stale 45s/);
    expect(banner).toMatch(/^! no answer since/);
    app.unmount();
  });

  it('REC while --record writes the session', async () => {
    const recording = { ...healthyState(), recording: true };
    const app = await renderApp(recording);
    expect(app.lines()[0]).toMatch(/● LIVE · ● REC · updated/);
    app.unmount();
    const plain = await renderApp(healthyState());
    expect(plain.lines()[0]).not.toContain('REC');
    plain.unmount();
  });
});
