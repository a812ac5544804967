/**
 * The server's clock (epoch ms): budgets' temporary increases lapse by it,
 * the ledger's month and the console's "this month" are read from it, and
 * the schedules' loop uses it by default (schedules/config.ts). Date.now
 * unless a test sets it, so a test can move the server's days with the
 * emulator's (test/server/console.test.ts).
 */
let clock: () => number = Date.now;

export const serverNow = (): number => clock();

/** Replace the clock (tests); `undefined` goes back to Date.now. */
export function setServerClock(now: (() => number) | undefined): void {
  clock = now ?? Date.now;
}
