import type { Budget } from '../budget.js';
import { caseFold, isWordChar } from '../unicode.js';
import type { CharTest, Instr } from './compile.js';

/**
 * A backtracking matcher with an explicit stack (no JavaScript recursion per character), so a long
 * subject cannot overflow the stack. Every instruction executed costs a step of the yaql budget:
 * a pattern that backtracks catastrophically ends with the usual "exceeded the limit" error
 * instead of hanging the engine.
 */

/** Backtrack frames are six numbers: kind, pc, pos, undo length, and two kind-specific values. */
const PLAIN = 0;
/** A greedy single-character repeat that can give back characters: count now used, minimum. */
const GIVE_BACK = 1;
/** A lazy single-character repeat that can take more: count now used, maximum; pc - 1 is the star. */
const TAKE_MORE = 2;

export class Machine {
  /** Pairs (slot, previous value) to restore when backtracking. */
  private readonly undo: number[] = [];
  readonly slots: number[];

  constructor(
    /** The subject as code points, so positions are Python's indexes. */
    private readonly input: Int32Array,
    slotCount: number,
    private readonly budget: Budget,
  ) {
    this.slots = new Array<number>(slotCount).fill(-1);
  }

  /**
   * Runs `code` from `start`; the end position of the first match, or -1. With `forbidEmpty`, a
   * match that ends where it started is rejected (Python's rule after an empty match).
   */
  run(code: Instr[], start: number, forbidEmpty = false): number {
    this.slots.fill(-1);
    this.undo.length = 0;
    return this.exec(code, start, forbidEmpty);
  }

  private set(slot: number, value: number): void {
    this.undo.push(slot, this.slots[slot]!);
    this.slots[slot] = value;
  }

  private rollback(length: number): void {
    const undo = this.undo;
    while (undo.length > length) {
      const old = undo.pop()!;
      this.slots[undo.pop()!] = old;
    }
  }

  private exec(code: Instr[], start: number, forbidEmpty: boolean): number {
    const input = this.input;
    const n = input.length;
    const stack: number[] = [];
    let pc = 0;
    let pos = start;
    for (;;) {
      this.budget.spend();
      const ins = code[pc]!;
      let ok = true;
      switch (ins.op) {
        case 'match':
          if (forbidEmpty && pos === start) ok = false;
          else return pos;
          break;
        case 'char':
          if (pos < n && ins.test(input[pos]!)) {
            pos++;
            pc++;
          } else ok = false;
          break;
        case 'star': {
          const count = ins.greedy ? this.span(ins.test, pos, ins.max) : this.span(ins.test, pos, ins.min);
          if (count < ins.min) {
            ok = false;
            break;
          }
          if (ins.greedy && count > ins.min)
            stack.push(GIVE_BACK, pc + 1, pos, this.undo.length, count, ins.min);
          if (!ins.greedy && count < ins.max)
            stack.push(TAKE_MORE, pc + 1, pos, this.undo.length, count, ins.max);
          pos += count;
          pc++;
          break;
        }
        case 'split':
          stack.push(PLAIN, ins.second, pos, this.undo.length, 0, 0);
          pc = ins.first;
          break;
        case 'jump':
          pc = ins.to;
          break;
        case 'save':
          this.set(ins.slot, pos);
          pc++;
          break;
        case 'assert':
          ok = this.assert(ins.kind, ins.ascii, pos);
          pc++;
          break;
        case 'look': {
          const at = ins.behind === null ? pos : pos - ins.behind;
          const mark = this.undo.length;
          const found = at >= 0 && this.exec(ins.code, at, false) >= 0;
          if (ins.negate || !found) this.rollback(mark);
          ok = found !== ins.negate;
          pc++;
          break;
        }
        case 'atomic': {
          const end = this.exec(ins.code, pos, false);
          ok = end >= 0;
          pos = end;
          pc++;
          break;
        }
        case 'backref': {
          const end = this.backref(ins.group, ins.ci, pos);
          ok = end >= 0;
          pos = end;
          pc++;
          break;
        }
        case 'cond':
          pc = this.slots[2 * ins.group + 1]! >= 0 ? pc + 1 : ins.no;
          break;
        case 'repInit':
          this.set(ins.counter, 0);
          pc++;
          break;
        case 'repLoop': {
          const count = this.slots[ins.counter]!;
          if (count < ins.min) pc++;
          else if (count >= ins.max) pc = ins.exit;
          else if (ins.greedy) {
            stack.push(PLAIN, ins.exit, pos, this.undo.length, 0, 0);
            pc++;
          } else {
            stack.push(PLAIN, pc + 1, pos, this.undo.length, 0, 0);
            pc = ins.exit;
          }
          break;
        }
        case 'mark':
          this.set(ins.slot, pos);
          pc++;
          break;
        case 'repNext':
          // An iteration that consumed nothing ends the loop, as in Python (no endless empty loop).
          if (pos === this.slots[ins.mark]) pc = ins.exit;
          else {
            this.set(ins.counter, this.slots[ins.counter]! + 1);
            pc = ins.loop;
          }
          break;
      }
      if (ok) continue;
      // Backtrack to the most recent choice that has an alternative left.
      for (;;) {
        if (stack.length === 0) return -1;
        this.budget.spend();
        const top = stack.length - 6;
        const kind = stack[top]!;
        const next = stack[top + 1]!;
        const base = stack[top + 2]!;
        const undoLength = stack[top + 3]!;
        const count = stack[top + 4]!;
        const limit = stack[top + 5]!;
        stack.length = top;
        this.rollback(undoLength);
        if (kind === PLAIN) {
          pc = next;
          pos = base;
          break;
        }
        if (kind === GIVE_BACK) {
          if (count - 1 > limit) stack.push(GIVE_BACK, next, base, undoLength, count - 1, limit);
          pc = next;
          pos = base + count - 1;
          break;
        }
        const star = code[next - 1] as Instr & { op: 'star' };
        if (base + count < n && star.test(input[base + count]!)) {
          if (count + 1 < limit) stack.push(TAKE_MORE, next, base, undoLength, count + 1, limit);
          pc = next;
          pos = base + count + 1;
          break;
        }
      }
    }
  }

  /** How many characters from `pos` (at most `max`) pass `test`. */
  private span(test: CharTest, pos: number, max: number): number {
    const input = this.input;
    const end = Math.min(input.length, pos + max);
    let i = pos;
    while (i < end && test(input[i]!)) i++;
    this.budget.spend(Math.ceil((i - pos) / 4));
    return i - pos;
  }

  private assert(kind: string, ascii: boolean, pos: number): boolean {
    const input = this.input;
    const n = input.length;
    switch (kind) {
      case 'bol':
      case 'start':
        return pos === 0;
      case 'bol-m':
        return pos === 0 || input[pos - 1] === 0x0a;
      case 'eol':
        return pos === n || (pos === n - 1 && input[pos] === 0x0a);
      case 'eol-m':
        return pos === n || input[pos] === 0x0a;
      case 'end':
        return pos === n;
      default: {
        const before = pos > 0 && isWordChar(input[pos - 1]!, ascii);
        const after = pos < n && isWordChar(input[pos]!, ascii);
        return (before !== after) === (kind === 'word');
      }
    }
  }

  /** Matches the text group `group` captured; the end position, or -1 (also if it captured nothing). */
  private backref(group: number, ci: boolean, pos: number): number {
    const from = this.slots[2 * group]!;
    const to = this.slots[2 * group + 1]!;
    if (from < 0 || to < 0) return -1;
    const length = to - from;
    if (pos + length > this.input.length) return -1;
    this.budget.spend(Math.ceil(length / 4));
    for (let k = 0; k < length; k++) {
      const a = this.input[from + k]!;
      const b = this.input[pos + k]!;
      if (a !== b && !(ci && caseFold(a) === caseFold(b))) return -1;
    }
    return pos + length;
  }
}
