import { describe, expect, it } from 'vitest';
import { createCatchUp } from '../../../src/contract/model/catch-up.ts';

// What is asserted is the waits the budget plans (100, 200, 400 ms... within it), not how long they took.
describe('the catch-up budget of a listing', () => {
  it('waits doubling until the search catches up, and remembers the longest lag', async () => {
    const catchUp = createCatchUp(1_000);
    let asked = 0;
    const secondTime = async () => {
      asked += 1;
      return asked === 2;
    };
    expect(await catchUp.lookAgain(secondTime)).toBe(300);
    expect(catchUp.lagSeen()).toBe(300);
    expect(await catchUp.lookAgain(async () => true)).toBe(100);
    expect(catchUp.lagSeen()).toBe(300);
  });

  it('gives up once the budget is spent, and then asks no more', async () => {
    const catchUp = createCatchUp(350);
    let asked = 0;
    expect(
      await catchUp.lookAgain(async () => {
        asked += 1;
        return false;
      }),
    ).toBeUndefined();
    // 100, 200, then the 50 left of 350.
    expect(asked).toBe(3);
    expect(await catchUp.lookAgain(async () => true)).toBeUndefined();
    expect(asked).toBe(3);
    expect(catchUp.lagSeen()).toBeUndefined();
  });
});
