// Factorio's technology count_formula: numbers, L (the level), + - * / ^ and parentheses. A tiny
// recursive-descent evaluator (never eval), returning null for anything it cannot read.
export function evalCountFormula(formula: string, level: number): number | null {
  const src = formula.replace(/\s+/g, '');
  let i = 0;
  const peek = () => src[i];
  const fail = () => {
    throw new Error('bad formula');
  };
  function primary(): number {
    const c = peek();
    if (c === '(') {
      i++;
      const v = sum();
      if (peek() !== ')') fail();
      i++;
      return v;
    }
    if (c === 'L' || c === 'l') {
      i++;
      return level;
    }
    if (c === '-') {
      i++;
      return -power();
    }
    if (c === '+') {
      i++;
      return power();
    }
    const m = /^\d+(\.\d+)?(e[+-]?\d+)?/i.exec(src.slice(i));
    if (!m) fail();
    i += m![0].length;
    return Number(m![0]);
  }
  function power(): number {
    const b = primary();
    if (peek() === '^') {
      i++;
      return Math.pow(b, power()); // right-associative
    }
    return b;
  }
  function product(): number {
    let v = power();
    while (peek() === '*' || peek() === '/') {
      const op = src[i++];
      const r = power();
      v = op === '*' ? v * r : v / r;
    }
    return v;
  }
  function sum(): number {
    let v = product();
    while (peek() === '+' || peek() === '-') {
      const op = src[i++];
      const r = product();
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  try {
    const v = sum();
    if (i !== src.length || !Number.isFinite(v)) return null;
    return v;
  } catch {
    return null;
  }
}
