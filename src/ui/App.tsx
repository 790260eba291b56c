/**
 * The live monitor: header, panes placed by layout.ts, footer. State comes from the controller
 * (useSyncExternalStore), UI state from a reducer; a once-per-second tick only advances ages.
 */
import type { ReactNode } from 'react';
import { useMemo, useReducer } from 'react';
import { Box } from 'ink';
import type { MonitorController, MonitorState } from '../monitor/state.js';
import type { Size } from './layout.js';
import { chooseMode, planLayout } from './layout.js';
import { useKeyboard } from './hooks/useKeyboard.js';
import { useMonitorState } from './hooks/useMonitorState.js';
import { useSecondTick } from './hooks/useSecondTick.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { AlarmPane, alarmPaneWant } from './panes/AlarmPane.js';
import { Footer } from './panes/Footer.js';
import { GnssPane, gnssPaneWant } from './panes/GnssPane.js';
import { Header } from './panes/Header.js';
import { HelpOverlay } from './panes/HelpOverlay.js';
import { NtpPane, ntpPaneWant } from './panes/NtpPane.js';
import type { PaneProps } from './panes/pane-props.js';
import { PtpPane, ptpPaneWant } from './panes/PtpPane.js';
import { headerLines } from './renderers/header.js';
import { sectionSummary } from './renderers/summary.js';
import type { ListLengths, PaneId, UiState } from './ui-state.js';
import { initialUiState, uiReducer } from './ui-state.js';
import type { Display } from './widgets/Display.js';
import { DisplayContext, makeDisplay, useDisplay } from './widgets/Display.js';
import { StyledLine } from './widgets/StyledLine.js';
import { PANE_GAP } from './layout.js';

export interface AppProps {
  controller: MonitorController;
  color: boolean;
  ascii: boolean;
  /** Fixed terminal size (tests); otherwise the real one, following resizes. */
  size?: Size | undefined;
  /** Clock (tests); Date.now otherwise. */
  now?: (() => number) | undefined;
  onQuit: () => void;
}

export function App({ controller, color, ascii, size, now, onQuit }: AppProps) {
  const display = useMemo(() => makeDisplay(color, ascii), [color, ascii]);
  const state = useMonitorState(controller);
  const terminal = useTerminalSize(size);
  useSecondTick();
  const [ui, dispatch] = useReducer(uiReducer, initialUiState);
  const lengths: ListLengths = {
    ntpRows: state.ntp.data?.sources.length ?? 0,
    gnssReceivers: state.gnss.data?.receivers.length ?? 0,
    ptpPorts: state.ptp.data?.ports.length ?? 0,
  };
  useKeyboard({ controller, dispatch, helpOpen: ui.helpOpen, paused: state.paused, lengths, onQuit });
  return (
    <DisplayContext.Provider value={display}>
      <Screen state={state} ui={ui} size={terminal} now={(now ?? Date.now)()} />
    </DisplayContext.Provider>
  );
}

const paneComponents: Record<PaneId, (props: PaneProps) => ReactNode> = {
  ntp: NtpPane,
  gnss: GnssPane,
  ptp: PtpPane,
  alarm: AlarmPane,
};

function paneWants(state: MonitorState, ui: UiState, size: Size, display: Display, now: number): Record<PaneId, number> {
  // GNSS and PTP share a row only in the full layout; otherwise they get the whole width.
  const half = chooseMode(size, ui.zoomed) === 'full' ? Math.floor((size.columns - PANE_GAP) / 2) : size.columns;
  return {
    ntp: ntpPaneWant(state),
    gnss: gnssPaneWant(state, half, display, ui.gnssReceiver),
    ptp: ptpPaneWant(state, half, display, ui.ptpPort, now),
    alarm: alarmPaneWant(state, half),
  };
}

/** Everything below the hooks: a pure function of state, UI state, size and time. */
export function Screen({ state, ui, size, now }: { state: MonitorState; ui: UiState; size: Size; now: number }) {
  const display = useDisplay();
  const header = headerLines(state, now, display);
  const chrome = header.length + 1;
  const plan = planLayout(size, ui.focus, ui.zoomed, chrome, paneWants(state, ui, size, display, now));
  const width = plan.width;
  const bodyHeight = Math.max(0, plan.frameHeight - chrome);

  return (
    <Box flexDirection="column" width={width} height={plan.frameHeight} overflow="hidden" flexShrink={0}>
      <Header lines={header} width={width} />
      <Box flexDirection="column" width={width} height={bodyHeight} overflow="hidden" flexShrink={0}>
        {ui.helpOpen ? (
          <HelpOverlay width={width} height={bodyHeight} />
        ) : (
          plan.blocks.map((block, i) => {
            if (block.kind === 'summary') {
              return <StyledLine key={`s-${block.pane}`} line={sectionSummary(block.pane, state, now, display)} width={width} />;
            }
            return (
              <Box key={`b-${i}`} flexDirection="row" width={width} height={block.height} overflow="hidden" flexShrink={0}>
                {block.columns.map((column, j) => (
                  <Box key={j} flexDirection="column" width={column.width} marginLeft={j > 0 ? PANE_GAP : 0} flexShrink={0}>
                    {column.slots.map((slot) => {
                      const Pane = paneComponents[slot.pane];
                      return <Pane key={slot.pane} state={state} ui={ui} now={now} width={slot.width} height={slot.height} focused={ui.focus === slot.pane} />;
                    })}
                  </Box>
                ))}
              </Box>
            );
          })
        )}
      </Box>
      <Footer width={width} />
    </Box>
  );
}
