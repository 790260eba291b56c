import type { PtpPort } from '../../model/snapshot.js';
import type { MonitorState } from '../../monitor/state.js';
import { stateKey } from '../../monitor/events.js';
import { seriesKey } from '../../monitor/history.js';
import { STATS_WINDOW } from '../../monitor/stats.js';
import { timeInState } from '../../view/time.js';
import { offsetLimits } from '../../view/theme.js';
import type { Field } from '../../view/field.js';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { chartTitle, offsetChart } from '../../view/chart.js';
import { ptpLiveColumns, ptpPortDetail, ptpPortRow } from '../../view/ptp-port.js';
import { errorLine, errorWrapLines, sectionAge, sectionErrorLines } from '../../view/section.js';
import type { PaneNeed } from '../layout.js';
import { elastic, withWrapLines } from '../layout.js';
import { clampIndex } from '../ui-state.js';
import type { Display } from '../widgets/Display.js';
import { useDisplay } from '../widgets/Display.js';
import { FieldGrid, gridShape, wrappedGridRows } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import { Table } from '../widgets/Table.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

const SPARK = 12;

function detailFields(state: MonitorState, port: PtpPort, now: number, display: Display): Field[] {
  // The port id is the selected row of the list right above: the pane leaves it out.
  return ptpPortDetail(
    port,
    state.history.values(seriesKey.ptpOffset(port.id), SPARK),
    now,
    { ascii: display.ascii, glyphs: display.glyphs, sparkWidth: SPARK, limits: offsetLimits(state.thresholds).ptp },
    {
      inState: timeInState(state.stateClock, stateKey.ptp(port.id), now, display.ascii),
      offsets: state.history.get(seriesKey.ptpOffset(port.id))?.recent(STATS_WINDOW) ?? [],
      delays: state.history.get(seriesKey.ptpDelay(port.id))?.recent(STATS_WINDOW) ?? [],
    },
  ).filter((f) => f.label !== 'port id');
}

/** Lines of the selected port's detail at a width (an erroring port: its error line). */
function detailRows(state: MonitorState, port: PtpPort | undefined, width: number, display: Display, now: number): number {
  if (!port) return 0;
  return port.ok ? gridShape(detailFields(state, port, now, display), width, 40).rows : port.error ? 1 : 0;
}

/** The PTP pane: the port list and the selected port's detail; its compact form is the list alone. */
/** The zoomed chart: its title, then the port's offset from master over the kept history. */
function zoomChart(state: MonitorState, portId: number, width: number, height: number, display: Display): Line[] {
  if (height < 1) return [];
  const samples = state.history.get(seriesKey.ptpOffset(portId))?.samples() ?? { times: [], values: [] };
  return [chartTitle(`offset from master, port ${portId}`, samples), ...offsetChart(samples, offsetLimits(state.thresholds).ptp, { width, height: height - 1, ascii: display.ascii })];
}

export function ptpPaneNeed(state: MonitorState, width: number, display: Display, selected: number, now: number): PaneNeed {
  const ports = state.ptp.data?.ports ?? [];
  const head = 1 + sectionErrorLines(state, state.ptp, width).length;
  const port = ports[clampIndex(selected, ports.length)];
  if (!port) {
    // A line saying why there is no port: no data yet, or none on the device (an error says it).
    const full = head + (state.ptp.data || !state.ptp.error ? 1 : 0);
    return elastic(full, full);
  }
  if (!port.ok) return elastic(head + 1 + ports.length + detailRows(state, port, width, display, now), head + 2);
  const fields = detailFields(state, port, now, display);
  const rows = gridShape(fields, width, 40).rows;
  // Given the lines, an error line beside the data wraps, then values too wide for the pane (a
  // device's long identity).
  return withWrapLines(elastic(head + 1 + ports.length + rows, head + 2), errorWrapLines(state, state.ptp, width) + wrappedGridRows(fields, width, 40) - rows);
}

function PtpPaneView({ state, ui, now, width, height, focused }: PaneProps) {
  const display = useDisplay();
  const section = state.ptp;
  const ports = section.data?.ports ?? [];
  const index = clampIndex(ui.ptpPort, ports.length);
  const port = ports[index];
  const listWant = 1 + ports.length;
  const detailWant = detailRows(state, port, width, display, now);
  // An error line beside the data wraps in the lines the list and the detail leave.
  const oneLineError = sectionErrorLines(state, section, width);
  const spare = port ? height - 1 - oneLineError.length - listWant - detailWant : 0;
  const errorLines = sectionErrorLines(state, section, width, undefined, spare);
  const body = height - 1 - errorLines.length;
  // Both when they fit. Else the list first, as the technician picks a port there: the focused
  // pane keeps half of the detail's lines (its grid pairs fields to fit them) and the list
  // scrolls to the selection, with its header, the selected row and a "more" line at least;
  // an unfocused pane shows its list first. Zoomed (`z`): the list at the top, the selected
  // port's offset over the kept history below.
  const charted = ui.zoomed && focused && port !== undefined && port.ok;
  const listFloor = Math.min(listWant, 3);
  const listHeight = charted
    ? Math.min(listWant, Math.max(listFloor, Math.floor(body / 4)))
    : body >= listWant + detailWant
      ? listWant
      : focused
        ? Math.min(listWant, body, Math.max(listFloor, body - Math.ceil(detailWant / 2)))
        : Math.min(listWant, body);
  const chartLines = charted ? zoomChart(state, port.id, width, body - listHeight, display) : [];
  const opts = { ascii: display.ascii, glyphs: display.glyphs, limits: offsetLimits(state.thresholds).ptp };

  return (
    <PaneFrame index={3} title="PTP" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {errorLines.map((line, i) => (
        <StyledLine key={`e${i}`} line={line} width={width} />
      ))}
      {!section.data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {section.data && ports.length === 0 ? <StyledLine line={[cell('no PTP slave ports on this device', 'muted')]} width={width} /> : null}
      {ports.length > 0 ? (
        <Table columns={ptpLiveColumns} rows={ports.map((p) => ptpPortRow(p, opts, timeInState(state.stateClock, stateKey.ptp(p.id), now)))} width={width} height={listHeight} selected={index} />
      ) : null}
      {chartLines.map((line, i) => (
        <StyledLine key={`c${i}`} line={line} width={width} />
      ))}
      {port && port.ok && !charted ? <FieldGrid fields={detailFields(state, port, now, display)} width={width} height={body - Math.min(listHeight, 1 + ports.length)} /> : null}
      {port && !port.ok && port.error && body > listHeight ? <StyledLine line={errorLine(port.error)} width={width} /> : null}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const ptpPaneWatch: PaneWatch = (p) => [p.state.ptp, p.ui.ptpPort, p.ui.zoomed];
export const PtpPane = memoPane(PtpPaneView, ptpPaneWatch);
