import type { LiveVerdict } from '../../monitor/verdict-memory.js';
import { cell, type Line } from '../../view/cell.js';
import { findingLines, findingsCount, findingsHeader } from '../../view/findings.js';
import { clampIndex } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';

/**
 * The `f` findings list: every finding of the health verdict (the header shows only the worst),
 * with severity, section and how long it has lasted; stale ones marked with the age of their
 * data. ↑/↓ scroll by finding; the last line says how many are above and below.
 */
export function FindingsOverlay({ verdict, top, width, height, now }: { verdict: LiveVerdict; top: number; width: number; height: number; now: number }) {
  const { glyphs, ascii } = useDisplay();
  const findings = verdict.findings;
  const body = Math.max(0, height - 2);
  const first = clampIndex(top, findings.length);
  const lines: Line[] = [];
  let shown = 0;
  for (const f of findings.slice(first)) {
    const block = findingLines(f, width, now, ascii);
    // Room for the scroll note when more follow; a finding is shown whole or not at all,
    // except the first, which is cut rather than never shown.
    const room = body - lines.length - (first > 0 || first + shown + 1 < findings.length ? 1 : 0);
    if (block.length > room && shown > 0) break;
    lines.push(...block.slice(0, Math.max(1, room)));
    shown++;
  }
  const below = findings.length - first - shown;
  const note = [first > 0 ? `${glyphs.up} ${first} above` : '', below > 0 ? `${glyphs.down} ${below} below` : ''].filter(Boolean).join('  ');
  return (
    <PaneFrame title="findings  (Esc or f closes)" status={[cell(findingsCount(findings), 'muted')]} focused width={width} height={height}>
      <StyledLine line={findingsHeader()} width={width} />
      {findings.length === 0 ? <StyledLine line={[cell('no findings: every health check passes', 'ok')]} width={width} /> : null}
      {lines.map((line, i) => (
        <StyledLine key={i} line={line} width={width} />
      ))}
      {note ? <StyledLine line={[cell(note, 'muted')]} width={width} /> : null}
    </PaneFrame>
  );
}
