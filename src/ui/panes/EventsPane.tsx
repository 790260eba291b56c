import type { MonitorState } from '../../monitor/state.js';
import { cell } from '../../view/cell.js';
import { eventLine, freshCount, freshText, wrapEventLines } from '../../view/events.js';
import type { PaneNeed } from '../layout.js';
import { elastic } from '../layout.js';
import { clampIndex } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

/** The events pane: its title and one line per event; any height down to the newest two. */
export function eventsPaneNeed(state: MonitorState): PaneNeed {
  const full = 1 + Math.max(1, state.events.length);
  return elastic(full, Math.min(full, 3));
}

/**
 * What changed, newest first: local time, severity symbol and color, the message, one line
 * each (wrapped under the message when the pane has lines to spare). Events after the last look
 * at the focused pane carry a mark and are counted in the title. ↑/↓ scroll back through the log
 * when the pane is focused.
 */
function EventsPaneView({ state, ui, width, height, focused }: PaneProps) {
  const { glyphs } = useDisplay();
  const body = Math.max(0, height - 1);
  const all = state.events.newestFirst();
  const fresh = freshCount(all, ui.eventsSeenAt);
  const overflow = all.length > body;
  const capacity = overflow ? Math.max(0, body - 1) : all.length;
  const top = Math.min(clampIndex(ui.eventsTop, all.length), Math.max(0, all.length - capacity));
  const shown = all.slice(top, top + capacity);
  const below = all.length - top - shown.length;
  const note = [top > 0 ? `${glyphs.up} ${top} newer` : '', below > 0 ? `${glyphs.down} ${below} older` : ''].filter(Boolean).join('  ');
  const status = [...freshText(fresh), ...(all.length > 0 ? [cell(`${fresh > 0 ? ' · ' : ''}${all.length} in log`, 'muted')] : [])];

  return (
    <PaneFrame index={5} title="Events" status={status} focused={focused} width={width} height={height}>
      {all.length === 0 ? <StyledLine line={[cell('no events yet: changes of state appear here', 'muted')]} width={width} /> : null}
      {wrapEventLines(
        shown.map((e) => eventLine(e, e.at > ui.eventsSeenAt, glyphs)),
        width,
        overflow ? 0 : body - shown.length,
      ).flatMap((lines, i) => lines.map((line, j) => <StyledLine key={`${top + i}.${j}`} line={line} width={width} />))}
      {overflow && body > 0 ? <StyledLine line={[cell(note, 'muted')]} width={width} /> : null}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const eventsPaneWatch: PaneWatch = (p) => [p.eventsVersion, p.ui.eventsTop, p.ui.eventsSeenAt];
export const EventsPane = memoPane(EventsPaneView, eventsPaneWatch, { showsAges: false });
