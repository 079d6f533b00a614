import { describe, expect, it } from 'vitest';
import { followRange } from './followRange';

const rowsOf = (px: number) => () => px;

describe('followRange', () => {
  it('mounts the newest rows that fill the viewport, and the overscan before them', () => {
    // Rows of 50 px with gaps of 10 in 200 px: the last four fill it (50 + 3 × 60 = 230).
    expect(followRange(100, 200, 10, 2, rowsOf(50))).toEqual([94, 95, 96, 97, 98, 99]);
  });

  it('takes a single tall last row, with the overscan before it', () => {
    expect(followRange(10, 200, 10, 2, (i) => (i === 9 ? 900 : 50))).toEqual([7, 8, 9]);
  });

  it('stops at the first row of a short list', () => {
    expect(followRange(3, 1000, 10, 2, rowsOf(50))).toEqual([0, 1, 2]);
  });

  it('mounts the last row and its overscan before the viewport is measured', () => {
    expect(followRange(5, 0, 10, 1, rowsOf(50))).toEqual([3, 4]);
  });

  it('returns nothing for an empty list', () => {
    expect(followRange(0, 200, 10, 2, rowsOf(50))).toEqual([]);
  });
});
