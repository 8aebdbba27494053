import { on } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MealPage } from './MealPage';

afterEach(cleanup);

function clickAction(name: string): string[] {
  const to: string[] = [];
  const off = on('route:navigate', (detail, event) => {
    to.push(detail.to);
    event.preventDefault();
  });
  fireEvent.click(screen.getByRole('button', { name }));
  off();
  return to;
}

describe('meal page', () => {
  it("says the meal is not available and offers the restaurant's menu when restId names it", () => {
    render(<MealPage mealId="55" restaurantId="1042" />);
    expect(screen.getByRole('region').textContent).toContain('This meal is not available');
    expect(clickAction('SEE THE MENU')).toEqual(['/menu/1042']);
  });

  it('goes home without a (valid) restaurant id', () => {
    render(<MealPage mealId="55" restaurantId="javascript:alert(1)" />);
    expect(clickAction('GO HOME')).toEqual(['/']);
  });
});
