import type { Glyphs } from '../../view/theme.js';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { bindingLabel, bindings, type Binding } from '../keys.js';
import type { Notice } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { StyledLine } from '../widgets/StyledLine.js';

/** The first key of a binding (or its digit range): the help overlay lists the others. */
function footerLabel(b: Binding, glyphs: Glyphs): string {
  return b.keys.length > 2 ? bindingLabel(b, glyphs) : bindingLabel({ ...b, keys: b.keys.slice(0, 1) }, glyphs);
}

/** Hints that stay when the line is too narrow for all: how to get out and how to learn the rest. */
const ALWAYS: readonly string[] = ['quit', 'help'];

/** The key hints, read from the key table itself; in a narrow terminal the others give way first. */
export function footerLine(glyphs: Glyphs, width = Number.POSITIVE_INFINITY): Line {
  const hints = bindings.filter((b) => b.footer).map((b) => ({ b, text: `${footerLabel(b, glyphs)} ${b.footer}` }));
  let used = hints.filter((h) => ALWAYS.includes(h.b.footer!)).reduce((s, h) => s + h.text.length + 2, -2);
  const shown = new Set(hints.filter((h) => ALWAYS.includes(h.b.footer!)).map((h) => h.b));
  for (const h of hints) {
    if (shown.has(h.b) || used + 2 + h.text.length > width) continue;
    shown.add(h.b);
    used += 2 + h.text.length;
  }
  const out: Line = [];
  for (const { b } of hints) {
    if (!shown.has(b)) continue;
    if (out.length > 0) out.push(cell('  '));
    out.push(cell(footerLabel(b, glyphs), 'accent', true), cell(` ${b.footer}`, 'muted'));
  }
  return out;
}

/** The key hints, the NTP filter being typed, or for a few seconds a notice ("screendump saved to ..."). */
export function Footer({ width, notice, filter = null }: { width: number; notice?: Notice | null | undefined; filter?: string | null }) {
  const { glyphs } = useDisplay();
  if (filter !== null) {
    return <StyledLine line={[cell('/', 'accent', true), cell(filter), cell('_', 'accent'), cell('  NTP sources whose name contains this · Enter keeps · Esc clears', 'muted')]} width={width} />;
  }
  return <StyledLine line={notice ? [cell(notice.text, notice.token, true)] : footerLine(glyphs, width)} width={width} />;
}
