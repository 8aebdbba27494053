import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAsync } from './useAsync';

afterEach(cleanup);

function Probe({ load, initial }: { load: () => Promise<string>; initial?: string }) {
  const state = useAsync(() => load(), [], { initial });
  return (
    <div>
      <span data-testid="status">{state.status}</span>
      <span data-testid="data">{state.data ?? ''}</span>
      <button onClick={state.reload}>reload</button>
    </div>
  );
}

describe('useAsync', () => {
  it('goes from loading to success, and to error then success again on reload', async () => {
    let calls = 0;
    const load = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve('menu');
    };
    render(<Probe load={load} />);
    expect(screen.getByTestId('status').textContent).toBe('loading');
    await act(async () => {});
    expect(screen.getByTestId('status').textContent).toBe('error');

    await act(async () => screen.getByText('reload').click());

    expect(screen.getByTestId('status').textContent).toBe('success');
    expect(screen.getByTestId('data').textContent).toBe('menu');
  });

  it('shows a result already in hand without loading, and loads on reload', async () => {
    let calls = 0;
    const load = () => {
      calls += 1;
      return Promise.resolve('fresh');
    };
    render(<Probe load={load} initial="carried" />);
    expect(screen.getByTestId('status').textContent).toBe('success');
    expect(screen.getByTestId('data').textContent).toBe('carried');
    await act(async () => {});
    expect(calls).toBe(0);

    await act(async () => screen.getByText('reload').click());
    expect(calls).toBe(1);
    expect(screen.getByTestId('data').textContent).toBe('fresh');
  });
});
