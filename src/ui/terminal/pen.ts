/**
 * The SGR "pen": which graphic attributes are active at a point of a terminal byte stream. Ink's
 * styled text normally closes every style it opens, but a line written on its own (line diff)
 * must start with the pen the full stream would have had there, so the pen is tracked exactly.
 */
export class Pen {
  private bold = false;
  private dim = false;
  private italic = false;
  private underline: string | null = null;
  private blink = false;
  private inverse = false;
  private hidden = false;
  private strike = false;
  private overline = false;
  private fg: string | null = null;
  private bg: string | null = null;
  private ul: string | null = null;
  /** Parameters we do not model, kept verbatim (in order) until a reset. */
  private extra: string[] = [];

  reset(): void {
    this.bold = this.dim = this.italic = this.blink = this.inverse = this.hidden = this.strike = this.overline = false;
    this.underline = this.fg = this.bg = this.ul = null;
    this.extra = [];
  }

  /** Applies the parameter string of one `CSI ... m`. */
  apply(paramText: string): void {
    const params = paramText === '' ? ['0'] : paramText.split(';');
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (p.includes(':')) {
        // Sub-parameters: 4:x underline style, 38:2::r:g:b colors.
        const head = p.slice(0, p.indexOf(':'));
        if (head === '4') this.underline = p === '4:0' ? null : p;
        else if (head === '38') this.fg = p;
        else if (head === '48') this.bg = p;
        else if (head === '58') this.ul = p;
        else this.extra.push(p);
        continue;
      }
      const n = p === '' ? 0 : Number(p);
      if (n === 38 || n === 48 || n === 58) {
        // 38;5;n or 38;2;r;g;b
        const kind = params[i + 1];
        const take = kind === '5' ? 2 : kind === '2' ? 4 : 0;
        const color = params.slice(i, i + 1 + take).join(';');
        i += take;
        if (n === 38) this.fg = color;
        else if (n === 48) this.bg = color;
        else this.ul = color;
        continue;
      }
      switch (n) {
        case 0: this.reset(); break;
        case 1: this.bold = true; break;
        case 2: this.dim = true; break;
        case 3: this.italic = true; break;
        case 4: this.underline = '4'; break;
        case 5: this.blink = true; break;
        case 7: this.inverse = true; break;
        case 8: this.hidden = true; break;
        case 9: this.strike = true; break;
        case 21: this.underline = '21'; break;
        case 22: this.bold = this.dim = false; break;
        case 23: this.italic = false; break;
        case 24: this.underline = null; break;
        case 25: this.blink = false; break;
        case 27: this.inverse = false; break;
        case 28: this.hidden = false; break;
        case 29: this.strike = false; break;
        case 39: this.fg = null; break;
        case 49: this.bg = null; break;
        case 53: this.overline = true; break;
        case 55: this.overline = false; break;
        case 59: this.ul = null; break;
        default:
          if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.fg = p;
          else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.bg = p;
          else this.extra.push(p);
      }
    }
  }

  get isDefault(): boolean {
    return this.sgr() === '';
  }

  /** One SGR sequence that sets this pen from the default one; '' for the default pen. */
  sgr(): string {
    const ps: string[] = [];
    if (this.bold) ps.push('1');
    if (this.dim) ps.push('2');
    if (this.italic) ps.push('3');
    if (this.underline) ps.push(this.underline);
    if (this.blink) ps.push('5');
    if (this.inverse) ps.push('7');
    if (this.hidden) ps.push('8');
    if (this.strike) ps.push('9');
    if (this.overline) ps.push('53');
    if (this.fg) ps.push(this.fg);
    if (this.bg) ps.push(this.bg);
    if (this.ul) ps.push(this.ul);
    ps.push(...this.extra);
    return ps.length === 0 ? '' : `\x1b[${ps.join(';')}m`;
  }
}
