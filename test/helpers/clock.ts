// A clock the test sets: time moves only when the test says so.
import type { Clock } from '../../src/clock.ts';

export class TestClock implements Clock {
  #ms: number;

  /** Starts at `start` (default: the real time when the clock is made, so rows stay plausible). */
  constructor(start: Date | string = new Date()) {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  nowMs(): number {
    return this.#ms;
  }

  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.#ms += ms;
  }
}
