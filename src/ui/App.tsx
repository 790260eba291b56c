/**
 * The live monitor: header, panes placed by layout.ts, footer. State comes from the controller
 * (useSyncExternalStore), UI state from a reducer; a once-per-second tick only advances ages,
 * and memoized panes render again only when their own section (or the displayed second) moved.
 */
import type { ComponentType } from 'react';
import { useEffect, useMemo, useReducer } from 'react';
import { Box } from 'ink';
import type { MonitorController, MonitorState } from '../monitor/state.js';
import type { Block, LayoutPlan, PaneNeed, Size } from './layout.js';
import { chooseMode, emptyBodyLines, paneWidth, planLayout } from './layout.js';
import { useBell } from './hooks/useBell.js';
import { useKeyboard } from './hooks/useKeyboard.js';
import { useMonitorState } from './hooks/useMonitorState.js';
import { useNoticeExpiry } from './hooks/useNoticeExpiry.js';
import { useSecondTick } from './hooks/useSecondTick.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { AlarmPane, alarmPaneNeed } from './panes/AlarmPane.js';
import { DevicesOverlay } from './panes/DevicesOverlay.js';
import { EventsPane, eventsPaneNeed } from './panes/EventsPane.js';
import { FindingsOverlay } from './panes/FindingsOverlay.js';
import { Footer } from './panes/Footer.js';
import { GnssPane, gnssPaneNeed } from './panes/GnssPane.js';
import { Header } from './panes/Header.js';
import { HelpOverlay, helpLines } from './panes/HelpOverlay.js';
import { NtpPane, ntpPaneNeed } from './panes/NtpPane.js';
import type { PaneProps } from './panes/pane-props.js';
import { PtpPane, ptpPaneNeed } from './panes/PtpPane.js';
import type { Line } from '../view/cell.js';
import { lineWidth, wrapLine } from '../view/fit.js';
import { headerLines } from '../view/header.js';
import { sectionSummary } from '../view/summary.js';
import type { ListLengths, PaneId, UiState } from './ui-state.js';
import { filterSources, initialUiState, uiReducer } from './ui-state.js';
import type { Display } from './widgets/Display.js';
import { DisplayContext, makeDisplay, useDisplay } from './widgets/Display.js';
import { StyledLine } from './widgets/StyledLine.js';
import { PANE_GAP } from './layout.js';
import type { DeviceChoice } from '../monitor/state.js';

export interface AppProps {
  controller: MonitorController;
  color: boolean;
  ascii: boolean;
  /** Fixed terminal size (tests); otherwise the real one, following resizes. */
  size?: Size | undefined;
  /** Clock (tests); otherwise the controller's (replay: the recorded moment), else Date.now. */
  now?: (() => number) | undefined;
  onQuit: () => void;
  /** The `s` key: saves a screendump; resolves to the sentence the footer shows ("screendump saved to ..."). */
  onScreendump?: () => Promise<string>;
  /** Ring the terminal bell once each time the health verdict worsens (--bell). */
  bell?: boolean;
  /** Ctrl-L: paint the whole screen again. */
  onRedraw?: () => void;
  /** Set when opened from the fleet view: Esc or Backspace goes back to it. */
  onBack?: () => void;
}

export function App({ controller, color, ascii, size, now, onQuit, onScreendump, bell, onRedraw, onBack }: AppProps) {
  const display = useMemo(() => makeDisplay(color, ascii), [color, ascii]);
  const state = useMonitorState(controller);
  const terminal = useTerminalSize(size);
  useSecondTick();
  const [ui, dispatch] = useReducer(uiReducer, initialUiState);
  const devices = ui.overlay === 'devices' ? (controller.devices?.() ?? []) : [];
  // The help's length depends on the width alone: measured once per size, not every second.
  const helpLength = useMemo(() => helpLines(terminal.columns, display).length, [terminal.columns, display]);
  const lengths: ListLengths = {
    ntpRows: filterSources(state.ntp.data?.sources ?? [], ui.ntpFilter).length,
    gnssReceivers: state.gnss.data?.receivers.length ?? 0,
    ptpPorts: state.ptp.data?.ports.length ?? 0,
    events: state.events.length,
    devices: devices.length,
    findings: state.verdict.findings.length,
    // Scroll positions of the help: its lines beyond the rows it gets (about rows - 7).
    help: Math.max(1, helpLength - Math.max(1, terminal.rows - 7) + 1),
  };
  const pageSize = Math.max(1, Math.floor(terminal.rows / 2));
  useKeyboard({ controller, dispatch, ui, paused: state.paused, lengths, onQuit, onScreendump, pageSize, onRedraw, onBack });
  useBell(state.verdict.severity, bell ?? false);
  useNoticeExpiry(ui.notice, dispatch);
  // The focused events pane is being read: what it shows is no longer new.
  const newestEventAt = state.events.newestFirst(1)[0]?.at ?? 0;
  useEffect(() => {
    if (ui.focus === 'events' && ui.overlay === null && newestEventAt > ui.eventsSeenAt) dispatch({ type: 'eventsSeen', at: newestEventAt });
  }, [ui.focus, ui.overlay, ui.eventsSeenAt, newestEventAt]);
  const clock = now ?? controller.now ?? Date.now;
  return (
    <DisplayContext.Provider value={display}>
      <Screen state={state} ui={ui} size={terminal} now={clock()} devices={devices} />
    </DisplayContext.Provider>
  );
}

const paneComponents: Record<PaneId, ComponentType<PaneProps>> = {
  ntp: NtpPane,
  gnss: GnssPane,
  ptp: PtpPane,
  alarm: AlarmPane,
  events: EventsPane,
};

/** What each pane has to show at the width the layout mode gives it. */
export function paneNeeds(state: MonitorState, ui: UiState, size: Size, display: Display, now: number): Record<PaneId, PaneNeed> {
  const mode = chooseMode(size, ui.zoomed);
  const width = (pane: PaneId) => paneWidth(pane, size, mode);
  return {
    ntp: ntpPaneNeed(state, ui.ntpFilter, width('ntp'), display.glyphs),
    gnss: gnssPaneNeed(state, width('gnss'), display, ui.gnssReceiver, now),
    ptp: ptpPaneNeed(state, width('ptp'), display, ui.ptpPort, now),
    alarm: alarmPaneNeed(state, width('alarm')),
    events: eventsPaneNeed(state),
  };
}

/** Where a summary line's wrapped part starts: under the text after the pane's name. */
const SUMMARY_INDENT = 13;

/**
 * The header's lines, the panes' plan and the lines of each pane shown as its summary. A body
 * line no pane can use (the layout hands out panes in steps: a compact form or a summary line)
 * goes to a line that is cut and shows whole with it, as long as no pane loses a line: first the
 * header (the outage banner or the worst finding, then the verdict line), then the summary
 * lines, top to bottom, wrapped under their text.
 */
export function screenPlan(
  state: MonitorState,
  ui: UiState,
  size: Size,
  display: Display,
  now: number,
): { header: Line[]; plan: LayoutPlan; summaries: Partial<Record<PaneId, Line[]>> } {
  const needs = paneNeeds(state, ui, size, display, now);
  let header = headerLines(state, now, { ...display, width: size.columns });
  let plan = planLayout(size, ui.focus, ui.zoomed, header.length + 1, needs);
  let spare = ui.overlay ? 0 : emptyBodyLines(plan);
  if (spare > 0) {
    const roomier = headerLines(state, now, { ...display, width: size.columns, extraLines: spare });
    if (roomier.length > header.length) {
      const replanned = planLayout(size, ui.focus, ui.zoomed, roomier.length + 1, needs);
      const used = (p: LayoutPlan) => p.bodyHeight - emptyBodyLines(p);
      if (used(replanned) === used(plan)) [header, plan] = [roomier, replanned];
    }
    spare = emptyBodyLines(plan);
  }
  const summaries: Partial<Record<PaneId, Line[]>> = {};
  const blocks = plan.blocks.map((block): Block => {
    if (block.kind !== 'summary') return block;
    const line = sectionSummary(block.pane, state, now, display, ui.eventsSeenAt);
    const wrapped = spare > 0 ? wrapLine(line, plan.width, SUMMARY_INDENT) : [line];
    if (wrapped.length < 2 || wrapped.length - 1 > spare || wrapped.some((l) => lineWidth(l) > plan.width)) {
      summaries[block.pane] = [line];
      return block;
    }
    spare -= wrapped.length - 1;
    summaries[block.pane] = wrapped;
    return { ...block, lines: wrapped.length };
  });
  return { header, plan: { ...plan, blocks }, summaries };
}

/** Everything below the hooks: a pure function of state, UI state, size and time. */
export function Screen({ state, ui, size, now, devices = [] }: { state: MonitorState; ui: UiState; size: Size; now: number; devices?: readonly DeviceChoice[] }) {
  const display = useDisplay();
  const { header, plan, summaries } = screenPlan(state, ui, size, display, now);
  const width = plan.width;
  const bodyHeight = plan.bodyHeight;
  const eventsVersion = state.events.version;

  return (
    <Box flexDirection="column" width={width} height={plan.frameHeight} overflowY="hidden" flexShrink={0}>
      <Header lines={header} width={width} />
      <Box flexDirection="column" width={width} height={bodyHeight} overflowY="hidden" flexShrink={0}>
        {ui.overlay === 'help' ? (
          <HelpOverlay width={width} height={bodyHeight} top={ui.helpTop} />
        ) : ui.overlay === 'findings' ? (
          <FindingsOverlay verdict={state.verdict} top={ui.findingsTop} width={width} height={bodyHeight} now={now} />
        ) : ui.overlay === 'devices' ? (
          <DevicesOverlay devices={devices} selected={ui.deviceRow} width={width} height={bodyHeight} />
        ) : (
          plan.blocks.map((block, i) => {
            if (block.kind === 'summary') {
              return (summaries[block.pane] ?? []).map((line, k) => <StyledLine key={`s-${block.pane}-${k}`} line={line} width={width} />);
            }
            return (
              <Box key={`b-${i}`} flexDirection="row" width={width} height={block.height} overflowY="hidden" flexShrink={0}>
                {block.columns.map((column, j) => (
                  <Box key={j} flexDirection="column" width={column.width} marginLeft={j > 0 ? PANE_GAP : 0} flexShrink={0}>
                    {column.slots.map((slot) => {
                      const Pane = paneComponents[slot.pane];
                      return (
                        <Pane
                          key={slot.pane}
                          state={state}
                          ui={ui}
                          now={now}
                          width={slot.width}
                          height={slot.height}
                          focused={ui.focus === slot.pane}
                          eventsVersion={eventsVersion}
                        />
                      );
                    })}
                  </Box>
                ))}
              </Box>
            );
          })
        )}
      </Box>
      <Footer width={width} notice={ui.notice} filter={ui.filterEditing ? ui.ntpFilter : null} />
    </Box>
  );
}
