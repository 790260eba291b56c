/**
 * How this terminal can show things: color or not, Unicode or ASCII. chalk (under Ink) ignores
 * NO_COLOR, so color is decided once here and every styled row goes through `tintedText`.
 */
import { createContext, useContext } from 'react';
import type { Glyphs } from '../../view/theme.js';
import { glyphsFor } from '../../view/theme.js';

export interface Display {
  color: boolean;
  ascii: boolean;
  glyphs: Glyphs;
}

export function makeDisplay(color: boolean, ascii: boolean): Display {
  return { color, ascii, glyphs: glyphsFor(ascii) };
}

export const DisplayContext = createContext<Display>(makeDisplay(false, false));

export function useDisplay(): Display {
  return useContext(DisplayContext);
}
