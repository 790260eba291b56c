/**
 * Ink modules the build substitutes or wraps (scripts/build.mjs resolves these paths to Ink's
 * files; Ink's package exports expose only its entry).
 */
declare module 'ink/build/sanitize-ansi.js' {
  const sanitizeAnsi: (text: string) => string;
  export default sanitizeAnsi;
}
