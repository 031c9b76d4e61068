import { describe, expect, it } from 'vitest';
import { nextStep } from '../../../src/contract/run/extension-step.ts';
import { termsAt, type Breadth } from '../../../src/contract/run/plan-run.ts';

const asked: Breadth = { examples: 50, covering: 112, specialTerms: 50 };
const at: Breadth = { examples: 1, covering: 40, specialTerms: 18 };
/** 100 ms a covering request, 50 ms a special term, on top of a fixed 10 s. */
const cost = ({ covering, specialTerms }: Breadth) => 10_000 + 100 * covering + 50 * specialTerms;

describe('the next batch of a trimmed plan', () => {
  it('adds the most covering requests whose price fits, up to `most`, the special terms at the same share', () => {
    const next = nextStep({ asked, at, cost, ratio: 1, msLeft: 1_000, most: 20 })!;
    const price = (b: Breadth) => cost(b) - cost(at);
    expect(next.covering).toBeGreaterThan(at.covering);
    expect(next.specialTerms).toBe(Math.max(at.specialTerms, termsAt(asked, next.covering)));
    expect(price(next)).toBeLessThanOrEqual(1_000);
    // One more would not fit.
    const more = { ...next, covering: next.covering + 1, specialTerms: Math.max(at.specialTerms, termsAt(asked, next.covering + 1)) };
    expect(price(more)).toBeGreaterThan(1_000);
    expect(nextStep({ asked, at, cost, ratio: 1, msLeft: 1_000_000, most: 20 })!.covering).toBe(60);
  });

  it('prices at what the run took over its estimate: twice as slow, about half as many', () => {
    const plain = nextStep({ asked, at, cost, ratio: 1, msLeft: 2_000, most: 50 })!;
    const slow = nextStep({ asked, at, cost, ratio: 2, msLeft: 2_000, most: 50 })!;
    expect(slow.covering - at.covering).toBeLessThan(plain.covering - at.covering);
    expect(slow.covering - at.covering).toBeGreaterThanOrEqual(Math.floor((plain.covering - at.covering) / 2) - 1);
  });

  it('never goes past the plan as asked; once the covering set is whole, the special terms go on alone', () => {
    const whole = { examples: 1, covering: 110, specialTerms: 49 };
    expect(nextStep({ asked, at: whole, cost, ratio: 1, msLeft: 1_000_000, most: 20 })).toEqual({
      ...whole,
      covering: 112,
      specialTerms: 50,
    });
    const termsLeft = { examples: 1, covering: 112, specialTerms: 30 };
    expect(nextStep({ asked, at: termsLeft, cost, ratio: 1, msLeft: 1_000_000, most: 8 })).toEqual({ ...termsLeft, specialTerms: 38 });
    expect(
      nextStep({ asked, at: { examples: 1, covering: 112, specialTerms: 50 }, cost, ratio: 1, msLeft: 1_000_000, most: 8 }),
    ).toBeUndefined();
  });

  it('is nothing when even one more does not fit, or no time is left', () => {
    expect(nextStep({ asked, at, cost, ratio: 1, msLeft: 99, most: 20 })).toBeUndefined();
    expect(nextStep({ asked, at, cost, ratio: 1, msLeft: -5_000, most: 20 })).toBeUndefined();
  });
});
