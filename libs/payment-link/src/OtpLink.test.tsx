import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtpLink } from './OtpLink';
import { payLaterLinkActions, walletLinkActions } from './link-actions';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OtpLink', () => {
  it('links a wallet with the OTP inside a page form, without submitting that form', async () => {
    installFakeEdge({
      '/api/payment/wallet/link': { walletCode: 'PHONEPE', otpSent: true, linked: false },
      '/api/payment/wallet/validate-otp': fixtures.wallet({ walletCode: 'PHONEPE', name: 'PhonePe', linked: true, balance: 50000 }),
    });
    const onLinked = vi.fn();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <OtpLink name="PhonePe" actions={walletLinkActions('PHONEPE')} onLinked={onLinked} onError={vi.fn()} />
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'LINK' }));
    const otp = await screen.findByPlaceholderText('Enter 6-digit OTP');
    expect(screen.getByRole('group', { name: 'Link PhonePe' }).textContent).toContain('Enter the OTP sent to the mobile number registered with PhonePe');

    fireEvent.keyDown(otp, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Please enter the OTP.');
    fireEvent.change(otp, { target: { value: '123456' } });
    fireEvent.keyDown(otp, { key: 'Enter' });
    await waitFor(() => expect(onLinked).toHaveBeenCalledWith({ code: 'PHONEPE', name: 'PhonePe', linked: true, amount: 50000 }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'LINK' })).toBeTruthy();
  });

  it("keeps a refused OTP on the form with the edge's words, and tells the caller when the link cannot start", async () => {
    let linkFails = false;
    installFakeEdge({
      '/api/payment/paylater/link': () => (linkFails ? reply(503, 1, 'We could not reach LazyPay. Please try again in a moment') : { walletCode: 'lazypay', otpSent: true, linked: false }),
      '/api/payment/paylater/validate-otp': reply(400, 1, 'The OTP you entered is incorrect'),
    });
    const onError = vi.fn();
    const onLinked = vi.fn();
    render(<OtpLink name="LazyPay" actions={payLaterLinkActions('lazypay')} onLinked={onLinked} onError={onError} linkLabel="Link LazyPay" />);
    fireEvent.click(screen.getByRole('button', { name: 'Link LazyPay' }));
    fireEvent.change(await screen.findByPlaceholderText('Enter 6-digit OTP'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The OTP you entered is incorrect');
    expect(onLinked).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'CANCEL' }));
    linkFails = true;
    fireEvent.click(screen.getByRole('button', { name: 'Link LazyPay' }));
    await waitFor(() => expect(onError).toHaveBeenCalledWith('We could not reach LazyPay. Please try again in a moment'));
  });
});
