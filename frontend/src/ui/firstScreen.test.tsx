import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MorphBox } from '../features/composer/MorphBox';
import { noteFirstScreenDrawn, useEntersAnimated } from './firstScreen';

function Part() {
  return <p data-testid="part" data-enters={String(useEntersAnimated())} />;
}

describe('entry animations', () => {
  it('what the first screen shows is there at once; a part that appears later enters animated', () => {
    const first = render(<Part />);
    expect(first.getByTestId('part').dataset.enters).toBe('false');
    noteFirstScreenDrawn();
    // A part keeps what it was given when it appeared.
    first.rerender(<Part />);
    expect(first.getByTestId('part').dataset.enters).toBe('false');
    const later = render(<Part />);
    expect(later.getAllByTestId('part')[1]?.dataset.enters).toBe('true');
  });

  it('the composer box shows its first mode at once and fades in only a change of mode', () => {
    const { container, rerender } = render(
      <MorphBox modeKey="idle" className="box">
        <p>idle</p>
      </MorphBox>,
    );
    expect(container.querySelector('.morph__content')?.classList.contains('morph__content--in')).toBe(false);
    rerender(
      <MorphBox modeKey="approval" className="box">
        <p>approval</p>
      </MorphBox>,
    );
    expect(container.querySelector('.morph__content')?.classList.contains('morph__content--in')).toBe(true);
  });
});
