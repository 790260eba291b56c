import { Box } from 'ink';
import type { GnssReceiver } from '../../model/snapshot.js';
import type { MonitorState } from '../../monitor/state.js';
import { stateKey } from '../../monitor/events.js';
import { seriesKey } from '../../monitor/history.js';
import type { Line } from '../../view/cell.js';
import type { Field } from '../../view/field.js';
import { cell } from '../../view/cell.js';
import { chartTitle, countChart } from '../../view/chart.js';
import { gnssReceiverFields, gnssReceiverTabLines, gnssSatelliteLines, leapSecondWarning } from '../../view/gnss-receiver.js';
import { timeInState } from '../../view/time.js';
import { errorWrapLines, sectionAge, sectionErrorLine, sectionErrorLines } from '../../view/section.js';
import { GNSS_NO_RECEIVER_CODE } from '../../view/verdict.js';
import type { PaneNeed } from '../layout.js';
import { elastic, withWrapLines } from '../layout.js';
import { clampIndex } from '../ui-state.js';
import type { Display } from '../widgets/Display.js';
import { useDisplay } from '../widgets/Display.js';
import { FieldGrid, gridShape, wrappedGridRows } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

const SAT_WIDTH = 22;
const SPARK = 10;
/** Below this the satellites go under the fields instead of beside them. */
const SIDE_BY_SIDE = 58;
/** Widest a field's value is laid out for (wider ones are cut, or wrap where the pane has lines). */
const MAX_VALUE = 40;

function gnssErrorLine(state: MonitorState): Line | null {
  const err = state.gnss.error;
  if (!err) return null;
  if (err.kind === 'device' && err.code === GNSS_NO_RECEIVER_CODE) return [cell('- no GNSS receiver (or no permission)', 'warn')];
  return sectionErrorLine(state, err);
}

function satLines(state: MonitorState, rx: GnssReceiver, display: Display): Line[] {
  return gnssSatelliteLines(
    rx,
    (c) => state.history.values(c === 'total' ? seriesKey.gnssTotal(rx.id) : seriesKey.gnssCount(rx.id, c), SPARK),
    { ascii: display.ascii, glyphs: display.glyphs, sparkWidth: SPARK },
  );
}

function receiverFields(state: MonitorState, rx: GnssReceiver, display: Display, now: number) {
  return gnssReceiverFields(rx, { ascii: display.ascii, glyphs: display.glyphs, inState: timeInState(state.stateClock, stateKey.gnss(rx.id), now, display.ascii) });
}

/** Lines under the tabs: the fields (each value whole when `wrapped`), and the satellites beside them or under them. */
function contentRows(fields: Field[], sats: number, width: number, wrapped = false): number {
  const side = width >= SIDE_BY_SIDE;
  const fieldWidth = side ? width - SAT_WIDTH - 2 : width;
  const fieldRows = wrapped ? wrappedGridRows(fields, fieldWidth, MAX_VALUE) : gridShape(fields, fieldWidth, MAX_VALUE).rows;
  return side ? Math.max(fieldRows, sats) : fieldRows + sats;
}

/**
 * The GNSS pane: the receiver tabs, its fields and satellites; any height down to the tabs and a
 * line. Given the lines, an error line beside the data wraps (when all the rest fits), then tabs
 * too wide for one line, then values too wide for the fields' column; what it asks for in the full
 * layout is the form without any of them.
 */
export function gnssPaneNeed(state: MonitorState, width: number, display: Display, receiver: number, now: number): PaneNeed {
  const receivers = state.gnss.data?.receivers ?? [];
  const index = clampIndex(receiver, receivers.length);
  const rx = receivers[index];
  const head = 1 + sectionErrorLines(state, state.gnss, width, gnssErrorLine(state)).length;
  if (!rx) {
    const full = head + (state.gnss.data || !state.gnss.error ? 1 : 0);
    return elastic(full, full);
  }
  const fields = receiverFields(state, rx, display, now);
  const sats = satLines(state, rx, display).length;
  const tabs = head + 1 + (leapSecondWarning(rx) ? 1 : 0);
  const content = contentRows(fields, sats, width);
  const tabWraps = gnssReceiverTabLines(receivers, index, display.glyphs, width).length - 1;
  const valueWraps = contentRows(fields, sats, width, true) - content;
  return withWrapLines(elastic(tabs + content, tabs + 1), errorWrapLines(state, state.gnss, width, gnssErrorLine(state)) + tabWraps + valueWraps);
}

const CONSTELLATIONS = [
  ['gps', 'GPS'],
  ['glonass', 'GLONASS'],
  ['bds', 'BDS'],
  ['galileo', 'Galileo'],
] as const;

/** Zoomed (`z`): the satellites of each constellation over the kept history, one chart each. */
function satelliteCharts(state: MonitorState, rx: GnssReceiver, width: number, height: number, display: Display): Line[] {
  const each = Math.floor(height / CONSTELLATIONS.length);
  if (each < 2) return [];
  return CONSTELLATIONS.flatMap(([key, name]) => {
    const samples = state.history.get(seriesKey.gnssCount(rx.id, key))?.samples() ?? { times: [], values: [] };
    return [chartTitle(`${name} satellites, receiver ${rx.id}`, samples), ...countChart(samples, { width, height: each - 1, ascii: display.ascii })];
  });
}

function GnssPaneView({ state, ui, now, width, height, focused }: PaneProps) {
  const display = useDisplay();
  const section = state.gnss;
  const receivers = section.data?.receivers ?? [];
  const index = clampIndex(ui.gnssReceiver, receivers.length);
  const rx = receivers[index];
  const err = gnssErrorLine(state);
  const leap = rx ? leapSecondWarning(rx) : null;
  const side = width >= SIDE_BY_SIDE;
  const fields = rx ? receiverFields(state, rx, display, now) : [];
  const sats = rx ? satLines(state, rx, display) : [];
  const content = rx ? contentRows(fields, sats.length, width) : 0;
  // An error line beside the data wraps first, in lines the one-line tabs and the rest leave.
  const oneLineError = sectionErrorLines(state, section, width, err);
  const spare = rx ? height - 1 - oneLineError.length - (leap ? 1 : 0) - 1 - content : 0;
  const errorLines = sectionErrorLines(state, section, width, err, spare);
  const room = height - 1 - errorLines.length - (leap ? 1 : 0);
  // The tabs wrap into the lines the fields and satellites leave (the last holding the tabs left),
  // never above the zoomed charts.
  const tabRoom = ui.zoomed && focused ? 1 : Math.max(1, room - content);
  const tabs = rx ? gnssReceiverTabLines(receivers, index, display.glyphs, width, tabRoom) : [];
  const body = room - tabs.length;
  const fieldWidth = side ? width - SAT_WIDTH - 2 : width;
  const charts = ui.zoomed && focused && rx ? satelliteCharts(state, rx, width, body, display) : [];
  // The fields take the lines the satellites leave; long values wrap in any lines to spare.
  const fieldRows = Math.min(wrappedGridRows(fields, fieldWidth, MAX_VALUE), side ? body : Math.max(1, body - sats.length));

  return (
    <PaneFrame index={2} title="GNSS" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {errorLines.map((line, i) => (
        <StyledLine key={`e${i}`} line={line} width={width} />
      ))}
      {!section.data && !err ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {section.data && receivers.length === 0 ? <StyledLine line={[cell('the device lists no receivers', 'muted')]} width={width} /> : null}
      {tabs.map((line, i) => (
        <StyledLine key={`t${i}`} line={line} width={width} />
      ))}
      {leap ? <StyledLine line={leap} width={width} /> : null}
      {charts.map((line, i) => (
        <StyledLine key={`c${i}`} line={line} width={width} />
      ))}
      {rx && charts.length === 0 ? (
        <Box flexDirection={side ? 'row' : 'column'} width={width} height={Math.max(0, body)} overflowY="hidden">
          <Box width={fieldWidth} height={side ? body : fieldRows} flexShrink={0} overflowY="hidden">
            <FieldGrid fields={fields} width={fieldWidth} height={fieldRows} maxValueWidth={MAX_VALUE} />
          </Box>
          {side ? <Box width={2} flexShrink={0} /> : null}
          <Box flexDirection="column" width={side ? SAT_WIDTH : width} flexShrink={0} overflowY="hidden">
            {sats.slice(0, Math.max(0, side ? body : body - fieldRows)).map((line, i) => (
              <StyledLine key={i} line={line} width={side ? SAT_WIDTH : width} />
            ))}
          </Box>
        </Box>
      ) : null}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const gnssPaneWatch: PaneWatch = (p) => [p.state.gnss, p.ui.gnssReceiver, p.ui.zoomed];
export const GnssPane = memoPane(GnssPaneView, gnssPaneWatch);
