import type { Line } from './cell.js';

/** A labelled value for the key/value grids of the GNSS, PTP-detail and alarm panes. */
export interface Field {
  label: string;
  value: Line;
  /** An identity (clock identity, parent port): never cut for a narrower grid; shortened in its middle only when the pane itself is too narrow. */
  whole?: boolean;
}
