import type { City } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Footer } from './Footer';

afterEach(cleanup);

const city = (slug: string, name: string, enabled = true): City => ({ slug, name, enabled });
const cities: City[] = [
  city('bangalore', 'Bangalore'),
  city('mumbai', 'Mumbai'),
  city('delhi', 'Delhi'),
  city('gurgaon', 'Gurgaon', false),
  city('chennai', 'Chennai'),
  city('kolkata', 'Kolkata'),
  city('indore', 'Indore'),
  city('mysore', 'Mysore'),
  city('closed-goa', 'Goa'),
];

describe('Footer', () => {
  it('is compact on a menu: 6 cities at most, the others behind a button with their count', () => {
    render(<Footer cities={{ status: 'loaded', cities }} pageType="MENU" />);

    const available = screen.getByRole('list', { name: 'Available in:' });
    expect(within(available).getAllByRole('link').map((a) => a.textContent)).toEqual(['Mumbai', 'Delhi', 'Bangalore', 'Chennai', 'Kolkata']);
    expect(within(available).getByRole('link', { name: 'Mumbai' }).getAttribute('target')).toBe('_blank');
    expect(screen.queryByText('Other cities that we deliver:')).toBeNull();
    expect(screen.queryByText('Popular cities in India')).toBeNull();

    const button = screen.getByRole('button', { name: '2 cities' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);

    expect(button.getAttribute('aria-expanded')).toBe('true');
    const sections = screen.getAllByRole('region', { name: 'Other cities that we deliver:' });
    // The same cities in a 4-column (desktop) and a 2-column (mobile) layout; CSS shows one.
    expect(sections.map((s) => s.querySelectorAll('.shell-footer__column').length)).toEqual([4, 2]);
    expect(within(sections[0]!).getAllByRole('link').map((a) => a.textContent)).toEqual(['Indore', 'Mysore']);
    expect(screen.getByText('For better experience, download the Tiffin app now')).toBeTruthy();
    expect(screen.getByLabelText('Download on the App Store')).toBeTruthy();
    expect(screen.getByLabelText('Get it on Google Play')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Help & Support' }).getAttribute('target')).toBeNull();
    expect(screen.getByRole('link', { name: 'About us' }).getAttribute('target')).toBe('_blank');
  });

  it('is the full footer on a listing, with the SEO links', () => {
    render(<Footer cities={{ status: 'loaded', cities }} pageType="LISTING" />);
    expect(screen.queryByRole('list', { name: 'Available in:' })).toBeNull();
    expect(screen.getAllByRole('region', { name: 'Popular cities in India' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'Rolls & Wraps restaurants near me' })[0]!.getAttribute('href')).toBe('/rolls-wraps-restaurants-near-me');
  });

  it('shows the default cities while the city list loads, with no button', () => {
    render(<Footer cities={{ status: 'loading' }} pageType="CART" />);
    const available = screen.getByRole('list', { name: 'Available in:' });
    expect(within(available).getAllByRole('link')).toHaveLength(6);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
