import type { Line } from './cell.js';

/** A labelled value for the key/value grids of the GNSS, PTP-detail and alarm panes. */
export interface Field {
  label: string;
  value: Line;
}
