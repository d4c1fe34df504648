import type { AssertKind, CharSet, RegexNode } from './ast.js';
import { RegexSyntaxError } from './parse.js';
import { caseFold, caseVariants, isDigitChar, isSpaceChar, isWordChar } from '../unicode.js';

/**
 * Instructions of the backtracking machine (machine.ts). A program is a list of them ending with
 * `match`; lookarounds and atomic groups hold sub-programs that run to their first success.
 * Registers after the capture slots hold repeat counters and the position an iteration began at.
 */
export type Instr =
  | { op: 'match' }
  | { op: 'char'; test: CharTest }
  | { op: 'star'; test: CharTest; min: number; max: number; greedy: boolean }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'assert'; kind: AssertKind; ascii: boolean }
  | { op: 'look'; code: Instr[]; behind: number | null; negate: boolean }
  | { op: 'atomic'; code: Instr[] }
  | { op: 'backref'; group: number; ci: boolean }
  | { op: 'cond'; group: number; no: number }
  | { op: 'repInit'; counter: number }
  | { op: 'mark'; slot: number }
  | { op: 'repLoop'; counter: number; min: number; max: number; greedy: boolean; exit: number }
  | { op: 'repNext'; counter: number; mark: number; loop: number; exit: number };

/** Whether one input code point matches a single-character item (a literal, `.`, a set). */
export type CharTest = (cp: number) => boolean;

export interface Compiled {
  code: Instr[];
  /** Capture slots (two per group, group 0 included) plus registers. */
  slotCount: number;
}

export function compileRegex(root: RegexNode, groupCount: number): Compiled {
  const compiler = new Compiler(2 * (groupCount + 1));
  const code = compiler.program({
    t: 'seq',
    items: [{ t: 'group', index: 0, body: root }],
  });
  return { code, slotCount: compiler.slots };
}

class Compiler {
  constructor(public slots: number) {}

  program(node: RegexNode): Instr[] {
    const code: Instr[] = [];
    this.emit(node, code);
    code.push({ op: 'match' });
    return code;
  }

  private emit(node: RegexNode, code: Instr[]): void {
    switch (node.t) {
      case 'empty':
        return;
      case 'char':
      case 'any':
      case 'set':
        code.push({ op: 'char', test: charTest(node) });
        return;
      case 'seq':
        for (const item of node.items) this.emit(item, code);
        return;
      case 'alt':
        return this.alternation(node.options, code);
      case 'group':
        code.push({ op: 'save', slot: 2 * node.index });
        this.emit(node.body, code);
        code.push({ op: 'save', slot: 2 * node.index + 1 });
        return;
      case 'repeat':
        return this.repeat(node, code);
      case 'assert':
        code.push({ op: 'assert', kind: node.kind, ascii: node.ascii ?? false });
        return;
      case 'look':
        code.push({
          op: 'look',
          code: this.program(node.body),
          behind: node.behind ? fixedWidth(node.body) : null,
          negate: node.negate,
        });
        return;
      case 'atomic':
        code.push({ op: 'atomic', code: this.program(node.body) });
        return;
      case 'backref':
        code.push({ op: 'backref', group: node.index, ci: node.ci });
        return;
      case 'cond': {
        const cond: Instr & { op: 'cond' } = { op: 'cond', group: node.index, no: 0 };
        code.push(cond);
        this.emit(node.yes, code);
        const jump: Instr & { op: 'jump' } = { op: 'jump', to: 0 };
        code.push(jump);
        cond.no = code.length;
        this.emit(node.no, code);
        jump.to = code.length;
        return;
      }
    }
  }

  private alternation(options: RegexNode[], code: Instr[]): void {
    const jumps: (Instr & { op: 'jump' })[] = [];
    for (const [k, option] of options.entries()) {
      if (k === options.length - 1) {
        this.emit(option, code);
        break;
      }
      const split: Instr & { op: 'split' } = { op: 'split', first: code.length + 1, second: 0 };
      code.push(split);
      this.emit(option, code);
      const jump: Instr & { op: 'jump' } = { op: 'jump', to: 0 };
      jumps.push(jump);
      code.push(jump);
      split.second = code.length;
    }
    for (const jump of jumps) jump.to = code.length;
  }

  private repeat(node: RegexNode & { t: 'repeat' }, code: Instr[]): void {
    if (node.possessive) {
      code.push({ op: 'atomic', code: this.program({ ...node, possessive: false }) });
      return;
    }
    const { body, min, max, greedy } = node;
    if (body.t === 'char' || body.t === 'any' || body.t === 'set') {
      code.push({ op: 'star', test: charTest(body), min, max, greedy });
      return;
    }
    const counter = this.slots++;
    const mark = this.slots++;
    code.push({ op: 'repInit', counter });
    const loop = code.length;
    const head: Instr & { op: 'repLoop' } = { op: 'repLoop', counter, min, max, greedy, exit: 0 };
    code.push(head, { op: 'mark', slot: mark });
    this.emit(body, code);
    const next: Instr & { op: 'repNext' } = { op: 'repNext', counter, mark, loop, exit: 0 };
    code.push(next);
    head.exit = code.length;
    next.exit = code.length;
  }
}

/** Python allows only fixed-width lookbehind; the width in code points. */
function fixedWidth(node: RegexNode): number {
  switch (node.t) {
    case 'empty':
    case 'assert':
    case 'look':
      return 0;
    case 'char':
    case 'any':
    case 'set':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + fixedWidth(item), 0);
    case 'group':
    case 'atomic':
      return fixedWidth(node.body);
    case 'repeat':
      if (node.min === node.max) return node.min * fixedWidth(node.body);
      break;
    case 'alt': {
      const widths = new Set(node.options.map(fixedWidth));
      if (widths.size === 1) return [...widths][0]!;
      break;
    }
    case 'cond': {
      const yes = fixedWidth(node.yes);
      if (yes === fixedWidth(node.no)) return yes;
      break;
    }
    case 'backref':
      break;
  }
  throw new RegexSyntaxError('look-behind requires fixed-width pattern');
}

function charTest(node: RegexNode & { t: 'char' | 'any' | 'set' }): CharTest {
  if (node.t === 'any') return node.dotAll ? () => true : (cp) => cp !== 0x0a;
  if (node.t === 'char') {
    const want = node.cp;
    if (!node.ci) return (cp) => cp === want;
    const folded = caseFold(want);
    return (cp) => cp === want || caseFold(cp) === folded;
  }
  return setTest(node.set);
}

function setTest(set: CharSet): CharTest {
  const plain = (cp: number): boolean =>
    set.ranges.some(([low, high]) => cp >= low && cp <= high) ||
    set.classes.some((cls) => {
      const hit =
        cls.name === 'digit'
          ? isDigitChar(cp, cls.ascii)
          : cls.name === 'word'
            ? isWordChar(cp, cls.ascii)
            : isSpaceChar(cp, cls.ascii);
      return hit !== cls.negate;
    });
  const member = set.ci ? (cp: number) => caseVariants(cp).some(plain) : plain;
  return set.negate ? (cp) => !member(cp) : member;
}
