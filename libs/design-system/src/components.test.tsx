import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { on } from '@tiffin/contract';
import { Button } from './Button';
import { errorCopyFor, ErrorState } from './ErrorState';
import { Link } from './Link';
import { MfeRoot } from './MfeRoot';
import { PageDrawn } from './PageDrawn';
import { Skeleton } from './Skeleton';
import { Timeline } from './Timeline';
import { ToastView } from './Toast';
import { VegMark } from './VegMark';

afterEach(cleanup);

describe('PageDrawn', () => {
  it('tells the shell once, when the screen beside it is committed, and not again on a re-render', () => {
    const seen: string[] = [];
    const off = on('page:drawn', () => seen.push(document.querySelector('.page')?.textContent ?? 'nothing'));
    const { rerender } = render(
      <div className="page">
        Dosa Corner
        <PageDrawn />
      </div>,
    );
    rerender(
      <div className="page">
        Dosa Corner, again
        <PageDrawn />
      </div>,
    );
    off();
    expect(seen).toEqual(['Dosa Corner']);
  });
});

describe('Button', () => {
  it('is a non-submitting button with the variant class', () => {
    const onClick = vi.fn();
    render(<Button variant="secondary" onClick={onClick}>Add</Button>);
    const button = screen.getByRole('button', { name: 'Add' });
    fireEvent.click(button);
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toContain('ds-button--secondary');
    expect(onClick).toHaveBeenCalledOnce();
  });
});

describe('VegMark', () => {
  it('labels veg, non-veg and egg', () => {
    render(
      <>
        <VegMark vegType="VEG" />
        <VegMark vegType="NONVEG" />
        <VegMark vegType="EGG" />
        <VegMark isVeg={1} />
      </>,
    );
    expect(screen.getAllByRole('img').map((e) => e.getAttribute('aria-label'))).toEqual(['Veg', 'Non-veg', 'Contains egg', 'Veg']);
  });
});

describe('Skeleton', () => {
  it('is hidden from assistive technology', () => {
    render(<Skeleton width={100} height={20} />);
    expect(screen.getByTestId('ds-skeleton').getAttribute('aria-hidden')).toBe('true');
  });
});

describe('ToastView', () => {
  it('announces errors as alerts and others as status', () => {
    const onDismiss = vi.fn();
    render(
      <>
        <ToastView text="Saved" status="success" />
        <ToastView text="Failed" status="error" onDismiss={onDismiss} />
      </>,
    );
    expect(screen.getByRole('status').textContent).toContain('Saved');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.getByRole('alert').textContent).toContain('Failed');
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});

describe('Link', () => {
  it('navigates in-app through the shell on a plain click', () => {
    const seen: string[] = [];
    const off = on('route:navigate', (detail, event) => {
      seen.push(detail.to);
      event.preventDefault();
    });
    render(<Link href="/cart">Cart</Link>);
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Cart' }));
    });
    off();
    expect(seen).toEqual(['/cart']);
  });

  it('leaves new-tab links to the browser', () => {
    const listener = vi.fn();
    const off = on('route:navigate', listener);
    render(
      <Link href="/corporate" target="_blank">
        Corporate
      </Link>,
    );
    const link = screen.getByRole('link', { name: 'Corporate' });
    link.addEventListener('click', (e) => e.preventDefault()); // keep jsdom from "navigating"
    fireEvent.click(link);
    off();
    expect(listener).not.toHaveBeenCalled();
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('ErrorState', () => {
  it('renders the copy and its action', () => {
    const retry = vi.fn();
    render(<ErrorState title="Uh-oh!" message="Sorry! This should not have happened. Please retry." actionLabel="Retry" onAction={retry} />);
    expect(screen.getByRole('alert').textContent).toContain('Uh-oh!');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('maps failures to the spec copy', () => {
    expect(errorCopyFor({ kind: 'network' }).title).toBe('Connection Error');
    expect(errorCopyFor({ kind: 'http', httpStatus: 429 })).toMatchObject({ title: "We'll be back shortly", retry: false });
    expect(errorCopyFor({ kind: 'http', httpStatus: 503, statusCode: 777 }).title).toBe("Something's broken");
    expect(errorCopyFor(new Error('boom')).title).toBe('Uh-oh!');
  });
});

describe('MfeRoot', () => {
  it('names the microfrontend and its version', () => {
    const { container } = render(
      <MfeRoot mfe="mfe-cart" version="1.2.3">
        x
      </MfeRoot>,
    );
    const root = container.firstElementChild!;
    expect(root.getAttribute('data-mfe')).toBe('mfe-cart');
    expect(root.getAttribute('data-mfe-version')).toBe('1.2.3');
  });
});

describe('Timeline', () => {
  it('lists the steps in order, the last one current, with when each happened if known', () => {
    render(<Timeline label="Order status" steps={[{ label: 'Order placed', detail: '8:30 pm' }, { label: 'Being prepared' }]} />);
    const steps = within(screen.getByRole('list', { name: 'Order status' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['Order placed8:30 pm', 'Being prepared']);
    expect(steps.map((s) => s.getAttribute('aria-current'))).toEqual([null, 'step']);
  });
});
